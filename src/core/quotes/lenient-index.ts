import { forEachLenientToken } from "../text/index.js";

/** A source's lenient tokens in order, as parallel arrays, each token's key interned as a small integer id. */
export interface LenientIndex {
  /** `ids[i]` is the id of token i's key; equal keys have equal ids. */
  ids: Int32Array;
  /** Token i covers `[starts[i], ends[i])` of the source text. */
  starts: Int32Array;
  ends: Int32Array;
  idByKey: Map<string, number>;
}

/**
 * Tokenizes `text` once and interns its token keys, so each quote is matched as an array of ids. Tokens are
 * kept as three integer arrays, not objects: a batch of small sources allocates little per token.
 */
export function buildLenientIndex(text: string): LenientIndex {
  const idByKey = new Map<string, number>();
  // A token is at least one character, so `text.length` bounds the count.
  const ids = new Int32Array(text.length);
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  let count = 0;
  forEachLenientToken(text, (key, start, end) => {
    let id = idByKey.get(key);
    if (id === undefined) {
      id = idByKey.size;
      idByKey.set(key, id);
    }
    ids[count] = id;
    starts[count] = start;
    ends[count] = end;
    count += 1;
  });
  return { ids: ids.slice(0, count), starts: starts.slice(0, count), ends: ends.slice(0, count), idByKey };
}
