import type { StepCounter } from "../step-counter.js";

/**
 * Knuth–Morris–Pratt search, over the UTF-16 code units of a string or over an array of token ids. Each
 * finds the occurrences of a pattern in order and stops at the first one `accept` takes, in
 * O(text + pattern) steps however the texts repeat: the text is read once, never re-read from an
 * earlier occurrence.
 */

/** The KMP failure function of `pattern`: for each prefix, the length of its longest proper border. */
function failureOfString(pattern: string): Int32Array {
  const failure = new Int32Array(pattern.length);
  let border = 0;
  for (let index = 1; index < pattern.length; index += 1) {
    const code = pattern.charCodeAt(index);
    while (border > 0 && pattern.charCodeAt(border) !== code) border = failure[border - 1] as number;
    if (pattern.charCodeAt(border) === code) border += 1;
    failure[index] = border;
  }
  return failure;
}

function failureOfIds(pattern: Int32Array): Int32Array {
  const failure = new Int32Array(pattern.length);
  let border = 0;
  for (let index = 1; index < pattern.length; index += 1) {
    const id = pattern[index] as number;
    while (border > 0 && pattern[border] !== id) border = failure[border - 1] as number;
    if (pattern[border] === id) border += 1;
    failure[index] = border;
  }
  return failure;
}

/**
 * The first position where `pattern` occurs in `text` and `accept(position)` holds, or -1. `pattern` is
 * not empty. Steps: about 2 per text unit and 2 per pattern unit, plus 1 per occurrence offered.
 */
export function searchString(
  text: string,
  pattern: string,
  accept: (position: number) => boolean,
  counter?: StepCounter,
): number {
  const length = pattern.length;
  if (length === 0 || length > text.length) return -1;
  const failure = failureOfString(pattern);
  const firstChar = pattern.charAt(0);
  // Steps, kept in a local and added once: the failure function's (amortised 2 per unit), the text's.
  let steps = 2 * length;
  let matched = 0;
  let found = -1;
  let index = 0;
  while (index < text.length) {
    if (matched === 0) {
      // Nothing matched yet: the native scan for the first unit is linear and reads each unit once.
      const next = text.indexOf(firstChar, index);
      steps += (next < 0 ? text.length : next) - index + 1;
      if (next < 0) break;
      index = next + 1;
      matched = 1;
    } else {
      const code = text.charCodeAt(index);
      steps += 1;
      while (matched > 0 && pattern.charCodeAt(matched) !== code) {
        matched = failure[matched - 1] as number;
        steps += 1;
      }
      if (pattern.charCodeAt(matched) === code) matched += 1;
      index += 1;
    }
    if (matched === length) {
      steps += 1;
      const position = index - length;
      if (accept(position)) {
        found = position;
        break;
      }
      matched = failure[length - 1] as number;
    }
  }
  if (counter !== undefined) counter.steps += steps;
  return found;
}

/** The same over token ids: the first position where `pattern` occurs in `text`, or -1. */
export function searchIds(text: Int32Array, pattern: Int32Array, counter?: StepCounter): number {
  const length = pattern.length;
  if (length === 0 || length > text.length) return -1;
  const failure = failureOfIds(pattern);
  const first = pattern[0] as number;
  let steps = 2 * length;
  let matched = 0;
  let found = -1;
  let index = 0;
  while (index < text.length) {
    if (matched === 0) {
      const next = text.indexOf(first, index);
      steps += (next < 0 ? text.length : next) - index + 1;
      if (next < 0) break;
      index = next + 1;
      matched = 1;
    } else {
      const id = text[index] as number;
      steps += 1;
      while (matched > 0 && pattern[matched] !== id) {
        matched = failure[matched - 1] as number;
        steps += 1;
      }
      if (pattern[matched] === id) matched += 1;
      index += 1;
    }
    if (matched === length) {
      found = index - length;
      break;
    }
  }
  if (counter !== undefined) counter.steps += steps;
  return found;
}
