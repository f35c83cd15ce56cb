/**
 * True when the UTF-16 code unit `charCode` is whitespace as JavaScript's `\s` reads it (every such
 * character is in the BMP, so one code unit is enough).
 */
export function isWhitespaceChar(charCode: number): boolean {
  // A switch instead of /\s/.test keeps the scans over 100,000-character sources allocation-free.
  if (charCode <= 0x20) return charCode === 0x20 || (charCode >= 0x09 && charCode <= 0x0d);
  if (charCode < 0xa0) return false;
  return (
    charCode === 0xa0 ||
    charCode === 0x1680 ||
    (charCode >= 0x2000 && charCode <= 0x200a) ||
    charCode === 0x2028 ||
    charCode === 0x2029 ||
    charCode === 0x202f ||
    charCode === 0x205f ||
    charCode === 0x3000 ||
    charCode === 0xfeff
  );
}
