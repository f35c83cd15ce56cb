const ZERO = 48;
const COMMA = 44;
const DOT = 46;

/**
 * The canonical spelling of the number `text.slice(start, end)`, so equal numbers have equal keys:
 * thousands separators, leading zeros and trailing decimal zeros are dropped (`1,200` → `1200`,
 * `01.50` → `1.5`, `0.0` → `0`).
 */
export function numberKey(text: string, start = 0, end = text.length): string {
  let commas = false;
  let dot = -1;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code === COMMA) commas = true;
    else if (code === DOT) dot = index;
  }
  const wholeEnd = dot < 0 ? end : dot;
  // Leading zeros (and a separator after them) go, but one digit of the whole part always stays.
  let wholeStart = start;
  while (wholeStart < wholeEnd - 1) {
    const code = text.charCodeAt(wholeStart);
    if (code !== ZERO && code !== COMMA) break;
    wholeStart += 1;
  }
  let keyEnd = end;
  if (dot >= 0) {
    while (keyEnd > dot + 1 && text.charCodeAt(keyEnd - 1) === ZERO) keyEnd -= 1;
    if (keyEnd === dot + 1) keyEnd = dot;
  }
  if (!commas) return text.slice(wholeStart, keyEnd);
  // Joining the pieces between separators is several times faster than `replaceAll` on a slice.
  let key = "";
  let from = wholeStart;
  for (let index = wholeStart; index < keyEnd; index += 1) {
    if (text.charCodeAt(index) === COMMA) {
      key += text.slice(from, index);
      from = index + 1;
    }
  }
  return key + text.slice(from, keyEnd);
}

/**
 * The key of the number `text.slice(start, end)` times 10^`exponent` (`1.2` with 6 is `1200000`), in the
 * form of `numberKey`: a number written with a scale (`1.2M`, `21 thousand`) keys equal to its digits
 * written out. O(end − start + exponent).
 */
export function scaledNumberKey(text: string, start: number, end: number, exponent: number): string {
  if (exponent === 0) return numberKey(text, start, end);
  const plain = text.slice(start, end).replaceAll(",", "");
  const [whole = "", fraction = ""] = plain.split(".");
  const digits = `${whole}${fraction.padEnd(exponent, "0")}`;
  const point = whole.length + exponent;
  let from = 0;
  while (from < point - 1 && digits.charCodeAt(from) === ZERO) from += 1;
  let to = digits.length;
  while (to > point && digits.charCodeAt(to - 1) === ZERO) to -= 1;
  return to === point ? digits.slice(from, point) : `${digits.slice(from, point)}.${digits.slice(point, to)}`;
}

/**
 * The value of the number `text.slice(start, end)` when it is whole (digits and `,` only) and below 2^30 (at
 * most nine digits after its leading zeros), else -1: its `numberKey` is then `String(value)`. O(end − start).
 */
export function smallWholeNumber(text: string, start: number, end: number): number {
  let value = 0;
  let digits = 0;
  let significant = 0;
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === 44) continue;
    if (code < 48 || code > 57) return -1;
    value = value * 10 + (code - 48);
    digits += 1;
    if (value > 0) significant += 1;
    if (significant > 9) return -1;
  }
  return digits > 0 ? value : -1;
}
