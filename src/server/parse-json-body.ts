import { OWN_TURN_TEXT_CHARS } from "../limits.js";
import { nextTurn } from "../models/index.js";
import { isRecord } from "../util.js";
import type { CaseRange } from "./scan-json-body.js";

/**
 * `JSON.parse` of a body's UTF-8 bytes whose top-level `cases` items are at `caseRanges` (from `scanJsonBody`),
 * with a turn of the event loop (`turn`) after each `pieceBytes` or more of cases parsed: a 20 MB eval body is
 * otherwise one decode and one `JSON.parse` holding the loop, with the young-generation collections that copy
 * what it builds. The rest of the body (its skeleton, each case replaced by ` 0 `) is decoded and parsed
 * first, then each case is decoded from its bytes and parsed into its place; the whole body is never one
 * string. Valid JSON gives the same value as `JSON.parse(bytes.toString())` (same keys in the same order; each
 * range starts and ends at an ASCII byte, so its characters decode as they would in the whole); invalid JSON
 * throws as `JSON.parse` does: a skeleton and cases that each parse make valid JSON, the spaces keeping a
 * placeholder its own token (`1{…}` is not `10`). When the skeleton does not parse or its `cases` does not
 * hold the placeholders where the ranges say, the whole body is parsed at once (and throws if it is invalid).
 * O(body) steps.
 */
export async function parseJsonBody(
  bytes: Buffer,
  caseRanges: readonly CaseRange[],
  pieceBytes = OWN_TURN_TEXT_CHARS,
  turn: () => Promise<unknown> = nextTurn,
): Promise<unknown> {
  const parseWhole = () => JSON.parse(bytes.toString("utf8"));
  if (caseRanges.length === 0) return parseWhole();
  const parts: string[] = [];
  let at = 0;
  for (const range of caseRanges) {
    parts.push(bytes.toString("utf8", at, range.start), " 0 ");
    at = range.end;
  }
  parts.push(bytes.toString("utf8", at));
  let body: unknown;
  try {
    body = JSON.parse(parts.join(""));
  } catch {
    return parseWhole();
  }
  const cases = isRecord(body) ? body.cases : undefined;
  if (!Array.isArray(cases) || caseRanges.some((range) => cases[range.item] !== 0)) return parseWhole();
  let parsedBytes = 0;
  for (const range of caseRanges) {
    if (parsedBytes >= pieceBytes) {
      await turn();
      parsedBytes = 0;
    }
    cases[range.item] = JSON.parse(bytes.toString("utf8", range.start, range.end));
    parsedBytes += range.end - range.start;
  }
  return body;
}
