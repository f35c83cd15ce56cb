/** The result of reading JSON out of a model's text. */
export type ModelJson = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Reads the JSON object a model returned: the whole text, else the first fenced ```json block, else the
 * first balanced `{…}` after any prose. Models wrap JSON in fences and preambles even when asked not to.
 */
export function parseModelJson(content: string): ModelJson {
  const text = content.trim();
  if (text === "") return { ok: false, error: "the model returned no content" };
  const candidates = [text];
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  if (fenced?.[1] !== undefined) candidates.push(fenced[1].trim());
  const braced = firstBalancedObject(text);
  if (braced !== undefined) candidates.push(braced);
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch {
      // try the next reading
    }
  }
  return { ok: false, error: "the model's output is not valid JSON" };
}

function firstBalancedObject(text: string): string | undefined {
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth += 1;
    else if (char === "}") {
      depth -= 1;
      if (depth === 0) return text.slice(start, index + 1);
    }
  }
  return undefined;
}
