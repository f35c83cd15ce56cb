// Text from datasets, baselines and services (case ids, file names, messages) is printed to terminals and
// written into Markdown reports. A case id holding `ESC [2J` or an OSC 8 link would drive the reader's
// terminal; one holding `![x](https://…)` would put an image into a pull-request comment. These helpers make
// such text inert, and cap long lists. Each is O(n), one regex pass of single characters (no backtracking).

/**
 * C0 and C1 control characters (ESC, BEL, CR, line breaks…), DEL, and the bidirectional overrides and
 * isolates that reorder what a reader sees.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `\x1b`, `\u202e`: a control character written out, so it shows instead of acting. */
function visible(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Text for one line of a terminal: every control character (line breaks included) written out as `\xNN`. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, visible);
}

/**
 * Text of several lines for a terminal (an answer a model wrote): line feeds and tabs stay, every other control
 * character is written out, so a model cannot clear the screen, hide a line behind `\r` or plant a link.
 */
export function terminalLines(text: string): string {
  return text.replace(CONTROL, (char) => (char === "\n" || char === "\t" ? char : visible(char)));
}

/**
 * Markdown's punctuation that makes markup inside a line: brackets (links, images), backticks, `*` and `~`
 * (emphasis, strike), `|` (table cells) and the backslash itself. `_` and parentheses do nothing without
 * these (GitHub does not emphasise inside words), so reason codes such as `quote_not_found` stay readable.
 */
const MARKDOWN_PUNCTUATION = /[\\`*[\]|~]/g;

const HTML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * Text for inline Markdown or a table cell: whitespace runs become one space, control characters are written
 * out, HTML is escaped as entities and Markdown's markup characters with a backslash, so it renders as the text it is
 * (no link, image, emphasis or table break).
 */
export function markdownText(text: string): string {
  return terminalText(text.replace(/\s+/g, " "))
    .replace(MARKDOWN_PUNCTUATION, (char) => `\\${char}`)
    .replace(/[&<>]/g, (char) => HTML_ENTITIES[char] ?? char);
}

/** Text inside an inline code span: backticks cannot close it, control characters are written out. */
export function markdownCode(text: string): string {
  return terminalText(text.replace(/\s+/g, " ")).replace(/`/g, "'");
}

/** Items a report lists inline (added and removed cases); the JSON report keeps them all. */
export const MAX_LISTED_ITEMS = 20;

/**
 * The first `MAX_LISTED_ITEMS` items joined with `, `, then `… and N more` when there are more: a report's
 * size does not grow with a baseline's length.
 */
export function cappedList(items: readonly string[], max = MAX_LISTED_ITEMS): string {
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown} … and ${items.length - max} more` : shown;
}
