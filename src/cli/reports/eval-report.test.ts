import { describe, expect, it } from "vitest";
import type { EvalAllResult } from "../../client/index.js";
import { droppedClaimLines } from "./dropped-claims.js";
import { buildEvalReport, type ReportCase } from "./eval-report.js";
import { lowestCases } from "./format.js";

const run = { dataset: "set.jsonl", model: "local", mode: "strict" as const };
const failure = { error: { type: "gateway_error", code: "gateway_error", message: "The gateway failed." } };

function result(cases: EvalAllResult["cases"], coverageMean: number): EvalAllResult {
  const errored = cases.filter((entry) => entry.error !== undefined).length;
  return {
    aggregate: { coverageMean, unsupportedRate: 0, n: cases.length, errored },
    cases,
    usage: { totalTokens: 10, modelCalls: cases.length - errored },
  };
}

describe("buildEvalReport", () => {
  it("labels cases by id or position, and fails no case of a passing run (agreeing with the exit code)", () => {
    const report = buildEvalReport(
      result(
        [
          { id: "a", coverage: 1, citations: 2, unsupported: 0 },
          { coverage: 0.5, citations: 1, unsupported: 1 },
          { id: "c", ...failure },
        ],
        0.75,
      ),
      { ...run, minCoverage: 0.75 },
    );
    expect(report).toEqual({
      ...run,
      minCoverage: 0.75,
      passed: true,
      aggregate: { coverageMean: 0.75, unsupportedRate: 0, n: 3, errored: 1 },
      usage: { totalTokens: 10, modelCalls: 2 },
      cases: [
        { index: 0, id: "a", label: "a", coverage: 1, citations: 2, unsupported: 0, passed: true },
        // Below min-coverage, but the run's gate (coverage_mean) passed, so the case does not fail.
        { index: 1, label: "#2", coverage: 0.5, citations: 1, unsupported: 1, passed: true },
        { index: 2, id: "c", label: "c", error: failure.error, passed: true },
      ],
    });
  });

  it("fails, in a failing run, the cases below min-coverage and the errored ones, naming why", () => {
    const report = buildEvalReport(
      result(
        [
          { id: "a", coverage: 1, citations: 2, unsupported: 0 },
          { id: "b", coverage: 0.5, citations: 1, unsupported: 1 },
          { id: "c", ...failure },
        ],
        0.75,
      ),
      { ...run, minCoverage: 0.8 },
    );
    expect(report.passed).toBe(false);
    expect(report.cases.map(({ label, passed, failures }) => ({ label, passed, failures }))).toEqual([
      { label: "a", passed: true, failures: undefined },
      { label: "b", passed: false, failures: ["below_min_coverage"] },
      { label: "c", passed: false, failures: ["errored"] },
    ]);
  });

  it("gates on correct_rate with minCorrect and fails only the cases not correct", () => {
    const cases = [
      { id: "a", coverage: 0.5, citations: 1, unsupported: 1, correct: true },
      { id: "b", coverage: 1, citations: 1, unsupported: 0, correct: false },
      { id: "c", coverage: 1, citations: 1, unsupported: 0 },
    ];
    const scored = {
      ...result(cases, 5 / 6),
      aggregate: { ...result(cases, 5 / 6).aggregate, correctRate: 0.5 },
    };
    const failing = buildEvalReport(scored, { ...run, minCoverage: 0.8, minCorrect: 0.9 });
    expect(failing.passed).toBe(false);
    expect(failing.cases.map((entry) => entry.failures)).toEqual([undefined, ["not_correct"], undefined]);
    const passing = buildEvalReport(scored, { ...run, minCoverage: 0.8, minCorrect: 0.5 });
    expect(passing.passed).toBe(true);
    expect(passing.cases.every((entry) => entry.passed)).toBe(true);
    // Without minCorrect, correctness is reported but gates nothing.
    expect(buildEvalReport(scored, { ...run, minCoverage: 0 }).passed).toBe(true);
  });

  it.each([
    { name: "above", coverageMean: 0.9, minCoverage: 0.8, passed: true },
    { name: "equal", coverageMean: 0.8, minCoverage: 0.8, passed: true },
    { name: "equal but for float rounding", coverageMean: (0.1 + 0.7) / 1, minCoverage: 0.8, passed: true },
    { name: "below", coverageMean: 0.79, minCoverage: 0.8, passed: false },
    { name: "zero against zero", coverageMean: 0, minCoverage: 0, passed: true },
  ])("gate: $name", ({ coverageMean, minCoverage, passed }) => {
    const report = buildEvalReport(
      result([{ coverage: coverageMean, citations: 1, unsupported: 0 }], coverageMean),
      {
        ...run,
        minCoverage,
      },
    );
    expect(report.passed).toBe(passed);
  });

  it("says how many claims a case dropped when its result was over its details share", () => {
    const report = buildEvalReport(
      result(
        [
          { id: "big", coverage: 0.5, citations: 3, unsupported: 3, resultOmitted: "details_budget" },
          { id: "whole", coverage: 1, citations: 1, unsupported: 0, resultOmitted: "details_budget" },
        ],
        0.75,
      ),
      { ...run, minCoverage: 0.5 },
    );
    const [big, whole] = report.cases;
    expect(big?.droppedNotListed).toBe(3);
    expect(droppedClaimLines(big as ReportCase)).toEqual([
      "3 claims, not listed: the case's result was over its share of the eval's details budget",
    ]);
    // A case that dropped nothing has nothing to say, omitted result or not.
    expect(whole?.droppedNotListed).toBeUndefined();
    expect(droppedClaimLines(whole as ReportCase)).toEqual([]);
  });

  it("never passes a run in which every case errored", () => {
    expect(buildEvalReport(result([failure, failure], 0), { ...run, minCoverage: 0 }).passed).toBe(false);
  });
});

describe("lowestCases", () => {
  it("puts errored cases first, then lowest coverage, ties in dataset order, at most `count`", () => {
    const report = buildEvalReport(
      result(
        [
          { id: "full", coverage: 1, citations: 1, unsupported: 0 },
          { id: "half-1", coverage: 0.5, citations: 1, unsupported: 1 },
          { id: "broken", ...failure },
          { id: "half-2", coverage: 0.5, citations: 1, unsupported: 1 },
          { id: "none", coverage: 0, citations: 0, unsupported: 0 },
        ],
        0.5,
      ),
      { ...run, minCoverage: 0 },
    );
    expect(lowestCases(report.cases, 4).map((entry) => entry.label)).toEqual([
      "broken",
      "none",
      "half-1",
      "half-2",
    ]);
  });
});
