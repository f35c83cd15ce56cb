/** The result of reading JSON out of a model's text. */
export type ModelJson = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Reads the JSON object a model returned: the whole text, else the first fenced ```json block, else the
 * first balanced `{…}` after any prose. Models wrap JSON in fences and preambles even when asked not to.
 * O(n) in the length of `content`: every step is a forward scan (no backtracking regex sees model text).
 */
export function parseModelJson(content: string): ModelJson {
  const text = content.trim();
  if (text === "") return { ok: false, error: "the model returned no content" };
  const candidates = [text];
  const fenced = firstFencedBlock(text);
  if (fenced !== undefined) candidates.push(fenced.trim());
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

const fence = "```";

/**
 * The text between the first ``` (with an optional `json`/`JSON` tag) and the next ```, or undefined when
 * there is no closing fence. Two `indexOf` scans, O(n); it replaces `/```(?:json)?\s*\n?([\s\S]*?)```/`,
 * which took O(n²) steps on "```" followed by a long run of spaces. Leading whitespace is kept: the caller
 * trims the block.
 */
export function firstFencedBlock(text: string): string | undefined {
  const open = text.indexOf(fence);
  if (open < 0) return undefined;
  let start = open + fence.length;
  if (text.startsWith("json", start) || text.startsWith("JSON", start)) start += 4;
  const close = text.indexOf(fence, start);
  return close < 0 ? undefined : text.slice(start, close);
}

/** The first `{…}` whose braces balance (strings and escapes respected), scanning once: O(n). */
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
