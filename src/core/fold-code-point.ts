const COMBINING_MARKS = /\p{M}/gu;
const cache = new Map<number, string>();

/**
 * The lenient form of one code point: compatibility-decomposed (NFKD), case-folded, combining marks
 * dropped. Empty for a combining mark. Folding one code point at a time keeps every folded character
 * traceable to its place in the original text.
 */
export function foldCodePoint(codePoint: number): string {
  // ASCII needs only lower-casing; skipping the cache keeps tokenizing a large source cheap.
  if (codePoint < 0x80) {
    return codePoint >= 0x41 && codePoint <= 0x5a
      ? String.fromCharCode(codePoint + 0x20)
      : String.fromCharCode(codePoint);
  }
  const cached = cache.get(codePoint);
  if (cached !== undefined) return cached;
  // Lower-, upper- then lower-casing approximates full case folding (`ẞ`, `ß` and `SS` all become `ss`);
  // the second NFKD splits what casing may compose (`ǰ` upper-cases to `J` plus a combining caron).
  const folded = String.fromCodePoint(codePoint)
    .normalize("NFKD")
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .normalize("NFKD")
    .replace(COMBINING_MARKS, "");
  cache.set(codePoint, folded);
  return folded;
}
