// The full-width forms end sentences in Chinese and Japanese as `.`, `!` and `?` do elsewhere.
const sentenceEnds = new Set([".", "!", "?", "。", "！", "？"]);

/**
 * Places the marker ` [sourceId]` before a claim's final `.`, `!` or `?` (or `。`, `！`, `？`), or appends it when there is
 * none: `Revenue rose 5%.` → `Revenue rose 5% [q3].`
 */
export function addSourceMarker(claim: string, sourceId: string): string {
  const text = claim.trim();
  const marker = ` [${sourceId}]`;
  const last = text.at(-1);
  if (last !== undefined && sentenceEnds.has(last)) return `${text.slice(0, -1)}${marker}${last}`;
  return `${text}${marker}`;
}
