import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareWithBaseline, readBaselineReport } from "./compare-baseline.js";
import type { BaselineCase, ReportCase } from "./eval-report.js";

const options = { file: "base.json", tolerance: 0, failOnRegression: true };
const claim = (text: string) => ({ claim: text, reason: "quote_not_found" as const });

function scored(label: string, coverage: number, dropped: string[] = []): ReportCase {
  return {
    index: 0,
    id: label,
    label,
    coverage,
    citations: 1,
    unsupported: dropped.length,
    ...(dropped.length > 0 ? { dropped: dropped.map(claim) } : {}),
    passed: true,
  };
}
const errored = (label: string): ReportCase => ({
  index: 0,
  id: label,
  label,
  error: { type: "gateway_error", code: "gateway_error", message: "The gateway failed." },
  passed: false,
});
const was = (label: string, coverage: number | null, dropped: string[] = []): BaselineCase => ({
  label,
  coverage,
  dropped: dropped.map(claim),
  correct: null,
});

describe("compareWithBaseline", () => {
  it("reports added, removed, changed and unchanged cases, regressed ones first", () => {
    const comparison = compareWithBaseline(
      [
        scored("same", 1),
        scored("better", 1),
        scored("worse", 0.5, ["Profit doubled."]),
        scored("new", 0.2),
        scored("much-worse", 0),
        errored("now-errors"),
      ],
      [
        was("same", 1),
        was("better", 0.5, ["old claim"]),
        was("worse", 1),
        was("gone", 1),
        was("much-worse", 1),
        was("now-errors", 0),
      ],
      options,
    );
    expect(comparison).toEqual({
      ...options,
      regressed: 3,
      changed: [
        { label: "much-worse", before: 1, after: 0, change: -1, regressed: true, newlyFailed: [] },
        {
          label: "worse",
          before: 1,
          after: 0.5,
          change: -0.5,
          regressed: true,
          newlyFailed: [claim("Profit doubled.")],
        },
        // Errored now and not before: a regression though its coverage was already 0.
        { label: "now-errors", before: 0, after: null, change: 0, regressed: true, newlyFailed: [] },
        { label: "better", before: 0.5, after: 1, change: 0.5, regressed: false, newlyFailed: [] },
      ],
      added: ["new"],
      removed: ["gone"],
      unchanged: 1,
    });
  });

  it.each([
    { name: "a loss within the tolerance", tolerance: 0.25, after: 0.75, regressed: false },
    { name: "a loss of exactly the tolerance", tolerance: 0.1, after: 0.9, regressed: false },
    { name: "a loss beyond the tolerance", tolerance: 0.2, after: 0.75, regressed: true },
  ])("$name", ({ tolerance, after, regressed }) => {
    const comparison = compareWithBaseline([scored("a", after)], [was("a", 1)], {
      ...options,
      tolerance,
    });
    expect(comparison.regressed).toBe(regressed ? 1 : 0);
    expect(comparison.changed).toEqual([
      { label: "a", before: 1, after, change: after - 1, regressed, newlyFailed: [] },
    ]);
  });

  it("lists newly failed claims of a case whose coverage did not move, without calling it a regression", () => {
    const comparison = compareWithBaseline(
      [scored("a", 0.5, ["new failure", "old failure"])],
      [was("a", 0.5, ["old failure", "fixed failure"])],
      options,
    );
    expect(comparison.changed).toEqual([
      {
        label: "a",
        before: 0.5,
        after: 0.5,
        change: 0,
        regressed: false,
        newlyFailed: [claim("new failure")],
      },
    ]);
    expect(comparison.regressed).toBe(0);
  });

  it("counts a case that is no longer correct as regressed, and one now correct as changed", () => {
    const now = (label: string, correct: boolean): ReportCase => ({ ...scored(label, 1), correct });
    const earlier = (label: string, correct: boolean | null): BaselineCase => ({ ...was(label, 1), correct });
    const comparison = compareWithBaseline(
      [now("lost", false), now("gained", true), now("same", true), now("new", false)],
      [earlier("lost", true), earlier("gained", false), earlier("same", true), earlier("new", null)],
      options,
    );
    expect(comparison.regressed).toBe(1);
    expect(
      comparison.changed.map(({ label, regressed, correctness }) => ({ label, regressed, correctness })),
    ).toEqual([
      { label: "lost", regressed: true, correctness: "lost" },
      { label: "gained", regressed: false, correctness: "gained" },
    ]);
    expect(comparison.unchanged).toBe(2);
  });

  it("pairs repeated labels in order and counts a surplus as added or removed", () => {
    const comparison = compareWithBaseline(
      [scored("#1", 1), scored("dup", 1), scored("dup", 0)],
      [was("#1", 1), was("dup", 1), was("dup", 0), was("dup", 1)],
      options,
    );
    expect(comparison).toMatchObject({
      regressed: 0,
      changed: [],
      added: [],
      removed: ["dup"],
      unchanged: 3,
    });
  });
});

describe("readBaselineReport", () => {
  const write = (text: string) => {
    const file = join(mkdtempSync(join(tmpdir(), "verified-baseline-")), "base.json");
    writeFileSync(file, text);
    return file;
  };

  it("reads cases by id, or by position when they have none", async () => {
    const file = write(
      JSON.stringify({
        cases: [
          { index: 0, id: "a", coverage: 0.5, dropped: [claim("x")], correct: true },
          { index: 1, coverage: 1 },
          { index: 2, error: { code: "gateway_error" } },
        ],
      }),
    );
    expect(await readBaselineReport(file)).toEqual([
      { label: "a", coverage: 0.5, dropped: [claim("x")], correct: true },
      { label: "#2", coverage: 1, dropped: [], correct: null },
      { label: "#3", coverage: null, dropped: [], correct: null },
    ]);
  });

  it.each([
    {
      name: "invalid JSON, by line",
      text: '{\n  "cases": [,]\n}',
      message: /base\.json: line 2: invalid JSON/,
    },
    { name: "no cases", text: '{"aggregate": {}}', message: /expected a JSON report of verified eval/ },
    {
      name: "a case without coverage, by case and line",
      text: '{\n  "cases": [\n    {"index": 0, "coverage": 1},\n    {"index": 1}\n  ]\n}',
      message: /base\.json: case 2 \(line 4\): a case needs "coverage"/,
    },
    {
      name: "a correct that is not a boolean",
      text: '{"cases": [{"index": 0, "coverage": 1, "correct": "yes"}]}',
      message: /"correct" must be true or false/,
    },
    {
      name: "a malformed dropped list",
      text: '{"cases": [{"index": 0, "coverage": 1, "dropped": ["x"]}]}',
      message: /"dropped" must be a list of \{claim, reason\}/,
    },
  ])("rejects $name", async ({ text, message }) => {
    await expect(readBaselineReport(write(text))).rejects.toThrow(message);
  });
});
