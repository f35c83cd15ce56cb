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

/** Wraps `compute(text)` so it runs at most once per prepared source object. */
export function memoizePerSource<T>(compute: (text: string) => T): (source: PreparedSource) => T {
  const cache = new WeakMap<PreparedSource, T>();
  return (source) => {
    if (cache.has(source)) return cache.get(source) as T;
    const value = compute(source.text);
    cache.set(source, value);
    return value;
  };
}
