/**
 * The full code point that ends just before `index` in `text` (a surrogate pair read as one), or
 * undefined at the start of the text.
 */
export function codePointBefore(text: string, index: number): number | undefined {
  if (index <= 0 || index > text.length) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}
