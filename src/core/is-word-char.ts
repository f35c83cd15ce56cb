const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;

/**
 * True when `codePoint` is part of a word: a letter or digit of any script, or a combining mark (which
 * belongs to the letter before it, so `cafe` must not match inside a decomposed `café`).
 */
export function isWordChar(codePoint: number | undefined): boolean {
  if (codePoint === undefined) return false;
  // ASCII first: almost every boundary check in real text lands here.
  if (codePoint < 0x80) {
    return (
      (codePoint >= 0x30 && codePoint <= 0x39) ||
      (codePoint >= 0x41 && codePoint <= 0x5a) ||
      (codePoint >= 0x61 && codePoint <= 0x7a)
    );
  }
  return WORD_CHAR.test(String.fromCodePoint(codePoint));
}
