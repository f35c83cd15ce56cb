// Character classes of folded text (lower case), read by code: they run for every character of a claim.

/** A letter of folded text: `a` to `z`, or any character past ASCII. */
export function isLetterCode(code: number): boolean {
  return (code >= 97 && code <= 122) || code > 127;
}

export function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** A letter (`isLetterCode`) or an ASCII digit. */
export function isWordCode(code: number): boolean {
  return isLetterCode(code) || isDigitCode(code);
}

/**
 * True when `text[from, to)` is at most 3 spaces, `.`, `#` and `:`: what may stand between a header and
 * the number it introduces (`week 5`, `no. 5`, `# 5`).
 */
export function onlyNumberSigns(text: string, from: number, to: number): boolean {
  if (to - from > 3) return false;
  for (let index = from; index < to; index += 1) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 46 && code !== 35 && code !== 58) return false;
  }
  return true;
}
