import type { StepCounter } from "./step-counter.js";
import type { Source } from "./types.js";

/**
 * A source prepared once per request. Expensive views of its text (lenient tokens, numbers, tables)
 * are computed on first use and cached on this object through `memoizePerSource`, so a source is
 * normalised once per request however many claims cite it.
 */
export interface PreparedSource {
  readonly id: string;
  readonly text: string;
}

/** Prepares sources for checking; ids are looked up in request order, first one wins. */
export function prepareSources(sources: readonly Source[]): Map<string, PreparedSource> {
  const byId = new Map<string, PreparedSource>();
  for (const source of sources) {
    if (!byId.has(source.id)) byId.set(source.id, { id: source.id, text: source.text });
  }
  return byId;
}

/** Returns the index of the first source whose id repeats an earlier one, or -1. */
export function findDuplicateSourceId(sources: readonly { id: string }[]): number {
  const seen = new Set<string>();
  for (const [index, source] of sources.entries()) {
    if (seen.has(source.id)) return index;
    seen.add(source.id);
  }
  return -1;
}

/**
 * Wraps `compute(text, source)` so it runs at most once per prepared source object. A `counter` passed along is
 * charged one step per character of the source when the view is computed: every view is one linear pass.
 */
export function memoizePerSource<T>(
  compute: (text: string, source: PreparedSource) => T,
): (source: PreparedSource, counter?: StepCounter) => T {
  const cache = new WeakMap<PreparedSource, T>();
  return (source, counter) => {
    if (cache.has(source)) return cache.get(source) as T;
    const value = compute(source.text, source);
    cache.set(source, value);
    if (counter !== undefined) counter.steps += source.text.length;
    return value;
  };
}
