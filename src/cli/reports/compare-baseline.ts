import type { UnsupportedClaim } from "../../client/index.js";
import { isRecord } from "../../util.js";
import { CliInputError, jsonElementLines, parseJsonDocument, readInputFile } from "../input/index.js";
import {
  type BaselineCase,
  type BaselineComparison,
  type CaseChange,
  EPSILON,
  type EvalReport,
  type ReportCase,
  withVerdicts,
} from "./eval-report.js";

/**
 * Reads a JSON report written by `verified eval --report FILE.json` (or `--json`) as a baseline. Throws
 * `CliInputError` naming the file and the line of the first problem.
 */
export async function readBaselineReport(path: string): Promise<BaselineCase[]> {
  const text = await readInputFile(path);
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) throw new CliInputError(`${path}: line ${parsed.line}: ${parsed.message}`);
  const cases = isRecord(parsed.value) ? parsed.value.cases : undefined;
  if (!Array.isArray(cases)) {
    throw new CliInputError(
      `${path}: expected a JSON report of verified eval (an object with "cases"); write one with --report FILE.json.`,
    );
  }
  const lines = jsonElementLines(text, ["cases"]);
  return cases.map((entry, position) =>
    readBaselineCase(entry, `${path}: case ${position + 1} (line ${lines[position] ?? 1})`),
  );
}

function readBaselineCase(entry: unknown, where: string): BaselineCase {
  if (!isRecord(entry)) throw new CliInputError(`${where}: a case must be an object.`);
  const { index, id, coverage, error, dropped, correct } = entry;
  if (!Number.isInteger(index) || (index as number) < 0) {
    throw new CliInputError(`${where}: "index" must be the case's 0-based position.`);
  }
  if (id !== undefined && (typeof id !== "string" || id === "")) {
    throw new CliInputError(`${where}: "id" must be a non-empty string.`);
  }
  const errored = error !== undefined;
  if (!errored && !(typeof coverage === "number" && coverage >= 0 && coverage <= 1)) {
    throw new CliInputError(`${where}: a case needs "coverage" (0 to 1) or "error".`);
  }
  if (
    dropped !== undefined &&
    !(
      Array.isArray(dropped) &&
      dropped.every(
        (claim) => isRecord(claim) && typeof claim.claim === "string" && typeof claim.reason === "string",
      )
    )
  ) {
    throw new CliInputError(`${where}: "dropped" must be a list of {claim, reason}.`);
  }
  if (correct !== undefined && typeof correct !== "boolean") {
    throw new CliInputError(`${where}: "correct" must be true or false.`);
  }
  return {
    label: typeof id === "string" ? id : `#${(index as number) + 1}`,
    coverage: errored ? null : (coverage as number),
    dropped: (dropped as UnsupportedClaim[] | undefined) ?? [],
    correct: errored || correct === undefined ? null : correct,
  };
}

/**
 * Compares a run with a baseline, case by case: cases pair up by label (the `id`, else `#N`), repeated labels in
 * order. A case regressed when its coverage fell by more than `tolerance`, when it errored now and not
 * before, or when it was correct before and is not now. O(n + m) over the two runs' cases, plus their dropped claims.
 */
export function compareWithBaseline(
  cases: readonly ReportCase[],
  baseline: readonly BaselineCase[],
  options: { file: string; tolerance: number; failOnRegression: boolean },
): BaselineComparison {
  const waiting = new Map<string, BaselineCase[]>();
  for (const entry of baseline) {
    const queue = waiting.get(entry.label);
    if (queue) queue.push(entry);
    else waiting.set(entry.label, [entry]);
  }
  const changed: (CaseChange & { order: number })[] = [];
  const added: string[] = [];
  let unchanged = 0;
  for (const [order, entry] of cases.entries()) {
    const before = waiting.get(entry.label)?.shift();
    if (before === undefined) {
      added.push(entry.label);
      continue;
    }
    const after = entry.error === undefined ? (entry.coverage ?? 0) : null;
    const failedBefore = new Set(before.dropped.map((claim) => claim.claim));
    const newlyFailed = (entry.dropped ?? []).filter((claim) => !failedBefore.has(claim.claim));
    const change = (after ?? 0) - (before.coverage ?? 0);
    const correctness = correctnessChange(before.correct, entry.correct);
    if (after === before.coverage && newlyFailed.length === 0 && correctness === undefined) {
      unchanged += 1;
      continue;
    }
    const regressed =
      -change > options.tolerance + EPSILON ||
      (after === null && before.coverage !== null) ||
      correctness === "lost";
    changed.push({
      label: entry.label,
      before: before.coverage,
      after,
      change,
      regressed,
      newlyFailed,
      ...(correctness === undefined ? {} : { correctness }),
      order,
    });
  }
  const removed = [...waiting.values()].flat().map((entry) => entry.label);
  changed.sort(
    (left, right) =>
      Number(right.regressed) - Number(left.regressed) ||
      left.change - right.change ||
      left.order - right.order,
  );
  return {
    file: options.file,
    tolerance: options.tolerance,
    failOnRegression: options.failOnRegression,
    regressed: changed.filter((entry) => entry.regressed).length,
    changed: changed.map(({ order: _order, ...entry }) => entry),
    added,
    removed,
    unchanged,
  };
}

/** How a case's correctness moved: only a case with `expected` on both sides can lose or gain it. */
function correctnessChange(before: boolean | null, after: boolean | undefined): CaseChange["correctness"] {
  if (before === null || after === undefined || before === after) return undefined;
  return before ? "lost" : "gained";
}

/** The report with its baseline comparison; with `--fail-on-regression`, a regression fails the gate. */
export function withBaseline(report: EvalReport, comparison: BaselineComparison): EvalReport {
  return withVerdicts({ ...report, baseline: comparison });
}

/** The baseline's part of the verdict, or undefined when it does not fail the run. */
export function describeRegressionGate(comparison: BaselineComparison | undefined): string | undefined {
  if (comparison === undefined || !comparison.failOnRegression || comparison.regressed === 0)
    return undefined;
  const cases = comparison.regressed === 1 ? "1 case" : `${comparison.regressed} cases`;
  return `${cases} regressed by more than ${comparison.tolerance} against the baseline`;
}
