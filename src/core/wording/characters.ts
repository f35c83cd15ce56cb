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

/** The test for one class of characters, given as a string of them: one table look-up per code unit. */
export function codeClass(characters: string): (code: number) => boolean {
  const codes = Array.from(characters, (character) => character.charCodeAt(0));
  const table = new Uint8Array(Math.max(...codes) + 1);
  for (const code of codes) table[code] = 1;
  return (code) => table[code] === 1;
}

/** True when every character of `text[from, to)` is of the class `inClass` (true when it is empty). */
export function allOf(text: string, from: number, to: number, inClass: (code: number) => boolean): boolean {
  for (let index = from; index < to; index += 1) if (!inClass(text.charCodeAt(index))) return false;
  return true;
}

const isNumberSign = codeClass(" .#:");

/**
 * True when `text[from, to)` is at most 3 spaces, `.`, `#` and `:`: what may stand between a header and
 * the number it introduces (`week 5`, `no. 5`, `# 5`).
 */
export function onlyNumberSigns(text: string, from: number, to: number): boolean {
  return to - from <= 3 && allOf(text, from, to, isNumberSign);
}
