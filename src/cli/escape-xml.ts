// Characters XML 1.0 cannot hold at all, even escaped: C0 controls other than tab, newline and carriage
// return, lone surrogates, U+FFFE and U+FFFF.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

/**
 * Escapes text for XML element content or an attribute value (quotes and whitespace included, so an
 * attribute keeps its line breaks); characters XML cannot represent become U+FFFD.
 */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, "\uFFFD").replace(/[&<>"'\t\n\r]/g, (char) => ENTITIES[char] ?? char);
}
