import { type LenientToken, tokenizeLenient } from "../text/index.js";

/** A source's lenient tokens in order, each token's key interned as a small integer id. */
export interface LenientIndex {
  tokens: LenientToken[];
  /** `ids[i]` is the id of `tokens[i].key`; equal keys have equal ids. */
  ids: Int32Array;
  idByKey: Map<string, number>;
}

/** Tokenizes `text` once and interns its token keys, so each quote is matched as an array of ids. */
export function buildLenientIndex(text: string): LenientIndex {
  const tokens = tokenizeLenient(text);
  const ids = new Int32Array(tokens.length);
  const idByKey = new Map<string, number>();
  for (let position = 0; position < tokens.length; position++) {
    const key = (tokens[position] as LenientToken).key;
    let id = idByKey.get(key);
    if (id === undefined) {
      id = idByKey.size;
      idByKey.set(key, id);
    }
    ids[position] = id;
  }
  return { tokens, ids, idByKey };
}
