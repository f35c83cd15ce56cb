// A `chat.completion` JSON pasted into the Check view's answer box: the answer it holds is what gets checked.

/**
 * The first choice's message content when `text` is a Chat Completions answer (`{"choices": [{"message":
 * {"content": …}}]}`, as an OpenAI SDK or `POST /v1/chat/completions` returns it), else undefined, so prose
 * is checked as it is. Content given as parts has its text parts joined.
 */
export function answerOfChatCompletion(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  const choices = (parsed as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return undefined;
  const choice = choices.find((entry) => (entry as { index?: unknown } | null)?.index === 0) ?? choices[0];
  const content = (choice as { message?: { content?: unknown } } | null)?.message?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .map((part) => ((part as { text?: unknown } | null)?.text as string | undefined) ?? "")
    .join("");
}
