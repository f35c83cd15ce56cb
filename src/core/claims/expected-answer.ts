import { numberKey } from "../numbers/index.js";
import { forEachLenientToken, searchIds } from "../text/index.js";
import type { Range } from "../types.js";

/** Which expected answer a case's grounded claims hold, and where. */
export interface ExpectedMatch {
  /** The expected string that matched, as the case wrote it. */
  expected: string;
  /** The index of the grounded claim (in the case's `citations`) that holds it. */
  citation: number;
  /** `[start, end)` in that claim's text (UTF-16). */
  range: Range;
}

const NUMBER_TOKEN = /^[0-9][0-9.,]*$/;

/** Lenient tokens of several texts as one run of ids, a separator (-1, in no pattern) between texts. */
interface TokenRun {
  ids: number[];
  starts: number[];
  ends: number[];
  /** For each position, the index of the text it came from. */
  texts: number[];
}

// A lenient token's id: case, diacritics and punctuation are already gone; a number is keyed by its value
// (`1,250` and `1250` alike, `3.50` and `3.5` alike).
function idOf(key: string, ids: Map<string, number>): number {
  const canonical = NUMBER_TOKEN.test(key) ? `#${numberKey(key)}` : key;
  let id = ids.get(canonical);
  if (id === undefined) {
    id = ids.size;
    ids.set(canonical, id);
  }
  return id;
}

function readTexts(texts: readonly string[], ids: Map<string, number>): TokenRun {
  const run: TokenRun = { ids: [], starts: [], ends: [], texts: [] };
  for (const [index, text] of texts.entries()) {
    if (index > 0) {
      run.ids.push(-1);
      run.starts.push(0);
      run.ends.push(0);
      run.texts.push(-1);
    }
    forEachLenientToken(text, (key, start, end) => {
      run.ids.push(idOf(key, ids));
      run.starts.push(start);
      run.ends.push(end);
      run.texts.push(index);
    });
  }
  return run;
}

/**
 * The first expected answer (in the order given) whose lenient tokens occur as a run of whole tokens in one
 * grounded claim, with the claim's index and the range of that run; null when none does. Numbers compare by
 * value. An expected string without tokens (only punctuation) never matches. One linear search per expected
 * answer over all claims at once: O(Σ claims × expected count + Σ expected), the count bounded by
 * `MAX_EXPECTED_ANSWERS`.
 */
export function matchExpected(claims: readonly string[], expected: readonly string[]): ExpectedMatch | null {
  const ids = new Map<string, number>();
  const run = readTexts(claims, ids);
  const text = Int32Array.from(run.ids);
  for (const answer of expected) {
    const pattern: number[] = [];
    forEachLenientToken(answer, (key) => {
      pattern.push(idOf(key, ids));
    });
    const first = pattern.length === 0 ? -1 : searchIds(text, Int32Array.from(pattern));
    if (first < 0) continue;
    const last = first + pattern.length - 1;
    return {
      expected: answer,
      citation: run.texts[first] as number,
      range: [run.starts[first] as number, run.ends[last] as number],
    };
  }
  return null;
}
