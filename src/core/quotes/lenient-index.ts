import { type LenientToken, tokenizeLenient } from "../text/index.js";

/** A source's lenient tokens in order, and where each token key occurs (token indices, ascending). */
export interface LenientIndex {
  tokens: LenientToken[];
  positionsByKey: Map<string, number[]>;
}

/** Tokenizes `text` once and indexes its tokens by key, so each quote is looked up, not re-scanned. */
export function buildLenientIndex(text: string): LenientIndex {
  const tokens = tokenizeLenient(text);
  const positionsByKey = new Map<string, number[]>();
  for (let position = 0; position < tokens.length; position++) {
    const key = tokens[position]?.key ?? "";
    const positions = positionsByKey.get(key);
    if (positions === undefined) positionsByKey.set(key, [position]);
    else positions.push(position);
  }
  return { tokens, positionsByKey };
}
