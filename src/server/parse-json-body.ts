import { OWN_TURN_TEXT_CHARS } from "../limits.js";
import { nextTurn } from "../models/index.js";
import { isRecord } from "../util.js";
import type { CaseRange } from "./scan-json-body.js";

/**
 * `JSON.parse(text)` for a body whose top-level `cases` items are at `caseRanges` (from `scanJsonBody`), with
 * a turn of the event loop (`turn`) after each `pieceChars` or more of cases parsed: a 20 MB eval body is
 * otherwise one `JSON.parse` holding the loop, with the young-generation collections that copy what it
 * builds. The rest of the body (its skeleton, each case replaced by ` 0 `) is parsed first, then each case
 * from its slice into its place. Valid JSON gives the same value as `JSON.parse(text)` (same keys in the same
 * order); invalid JSON throws as `JSON.parse` does: a skeleton and cases that each parse make valid JSON,
 * the spaces keeping a placeholder its own token (`1{…}` is not `10`). When the skeleton does not parse or its
 * `cases` does not hold the placeholders where the ranges say, the whole text is parsed at once (and throws
 * if it is invalid). O(body) steps.
 */
export async function parseJsonBody(
  text: string,
  caseRanges: readonly CaseRange[],
  pieceChars = OWN_TURN_TEXT_CHARS,
  turn: () => Promise<unknown> = nextTurn,
): Promise<unknown> {
  if (caseRanges.length === 0) return JSON.parse(text);
  const parts: string[] = [];
  let at = 0;
  for (const range of caseRanges) {
    parts.push(text.slice(at, range.start), " 0 ");
    at = range.end;
  }
  parts.push(text.slice(at));
  let body: unknown;
  try {
    body = JSON.parse(parts.join(""));
  } catch {
    return JSON.parse(text);
  }
  const cases = isRecord(body) ? body.cases : undefined;
  if (!Array.isArray(cases) || caseRanges.some((range) => cases[range.item] !== 0)) return JSON.parse(text);
  let parsedChars = 0;
  for (const range of caseRanges) {
    if (parsedChars >= pieceChars) {
      await turn();
      parsedChars = 0;
    }
    cases[range.item] = JSON.parse(text.slice(range.start, range.end));
    parsedChars += range.end - range.start;
  }
  return body;
}
