import type { Range } from "../types.js";
import { numberKey } from "./number-key.js";
import { nextNumberStart, numberEnd } from "./scan.js";

/** The number keys of each line already read, by the line's start offset. */
export type LineNumbers = Map<number, Set<string>>;

function lineKeys(text: string, lineStart: number, lineEnd: number, cache: LineNumbers): Set<string> {
  let keys = cache.get(lineStart);
  if (keys === undefined) {
    keys = new Set<string>();
    for (let start = nextNumberStart(text, lineStart, lineEnd); start >= 0; ) {
      const end = numberEnd(text, start, lineEnd);
      keys.add(numberKey(text, start, end));
      start = nextNumberStart(text, end, lineEnd);
    }
    cache.set(lineStart, keys);
  }
  return keys;
}

/**
 * The keys of the numbers on the line(s) that `range` touches in `text`. Each line is read once per
 * `cache` (one per source and request), so many claims quoting one long line cost one scan of it.
 */
export function numbersOnLines(text: string, range: Range, cache: LineNumbers): Set<string> {
  const [start, end] = range;
  let lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const last = Math.max(start, end - 1);
  let union: Set<string> | undefined;
  for (;;) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const keys = lineKeys(text, lineStart, lineEnd, cache);
    if (lineEnd >= last || newline < 0) {
      if (union === undefined) return keys;
      for (const key of keys) union.add(key);
      return union;
    }
    union ??= new Set();
    for (const key of keys) union.add(key);
    lineStart = newline + 1;
  }
}
