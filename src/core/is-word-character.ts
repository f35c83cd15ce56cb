const WORD = /[\p{L}\p{M}\p{N}]/u;

/** True when the UTF-16 code unit at `index` of `text` is a letter, combining mark or digit (any script). */
export function isWordCharacter(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (Number.isNaN(code)) return false;
  if (code < 128) return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
  // Surrogate halves: a letter outside the BMP counts as a word character on either half.
  if (code >= 0xd800 && code <= 0xdfff) {
    const pair = code <= 0xdbff ? text.slice(index, index + 2) : text.slice(index - 1, index + 1);
    return WORD.test(pair);
  }
  return WORD.test(text[index] as string);
}
