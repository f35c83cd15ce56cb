import { basename } from "node:path";
import { describeDroppedClaims, droppedClaimLines } from "./dropped-claims.js";
import type { CaseFailure, EvalReport, ReportCase } from "./eval-report.js";
import { describeCase, describeCorrectness, describeGate, formatScore } from "./format.js";

/**
 * The JUnit XML report: one test suite named after the dataset, one test case per dataset case. A case
 * fails exactly when it fails the gate the command applied (`ReportCase.failures`), so a passing run has
 * `failures="0" errors="0"`: an errored case is an `<error>` when the run failed and `<skipped>` (not scored)
 * when it passed; a case that counts against a failed gate has a `<failure>` naming the gate. The gate in
 * words and the aggregate go in the suite's properties. A failure's message names the claims the case dropped.
 */
export function renderJunitReport(report: EvalReport): string {
  const errors = report.cases.filter((entry) => entry.error !== undefined && !entry.passed).length;
  const failures = report.cases.filter((entry) => entry.error === undefined && !entry.passed).length;
  const skipped = report.cases.filter((entry) => entry.error !== undefined && entry.passed).length;
  const counts = `tests="${report.cases.length}" failures="${failures}" errors="${errors}"`;
  const suite = basename(report.dataset);
  const properties: [string, string | number | boolean][] = [
    ["model", report.model],
    ["mode", report.mode],
    ["min_coverage", report.minCoverage],
    ...(report.minCorrect === undefined ? [] : [["min_correct", report.minCorrect] as [string, number]]),
    ["passed", report.passed],
    ["gate", describeGate(report)],
    ["coverage_mean", report.aggregate.coverageMean],
    ...(report.aggregate.correctRate === undefined
      ? []
      : [["correct_rate", report.aggregate.correctRate] as [string, number]]),
    ["unsupported_rate", report.aggregate.unsupportedRate],
    ["n", report.aggregate.n],
    ["errored", report.aggregate.errored],
    ["model_calls", report.usage.modelCalls],
    ["total_tokens", report.usage.totalTokens],
  ];
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="verified eval" ${counts}>`,
    `  <testsuite name="${escapeXml(suite)}" ${counts} skipped="${skipped}">`,
    "    <properties>",
    ...properties.map(
      ([name, value]) => `      <property name="${name}" value="${escapeXml(String(value))}"/>`,
    ),
    "    </properties>",
  ];
  for (const entry of report.cases) {
    const open = `    <testcase name="${escapeXml(entry.label)}" classname="${escapeXml(suite)}"`;
    if (entry.error !== undefined && entry.passed) {
      lines.push(
        `${open}>`,
        `      <skipped message="${escapeXml(`not scored: ${describeCase(entry)}`)}"/>`,
        "    </testcase>",
      );
    } else if (entry.error !== undefined) {
      lines.push(
        `${open}>`,
        `      <error type="${escapeXml(entry.error.code)}" message="${escapeXml(entry.error.message)}">${escapeXml(describeCase(entry))}</error>`,
        "    </testcase>",
      );
    } else if (!entry.passed) {
      const dropped = describeDroppedClaims(entry);
      const reasons = (entry.failures ?? []).map((failure) => describeFailure(failure, entry, report));
      const message = `${reasons.join("; ")}${dropped === "" ? "" : `; ${dropped}`}`;
      const body = [describeCase(entry), ...droppedClaimLines(entry).map((line) => `dropped ${line}`)].join(
        "\n",
      );
      lines.push(
        `${open}>`,
        `      <failure type="${(entry.failures ?? []).join(" ")}" message="${escapeXml(message)}">${escapeXml(body)}</failure>`,
        "    </testcase>",
      );
    } else {
      lines.push(`${open}/>`);
    }
  }
  lines.push("  </testsuite>", "</testsuites>");
  return `${lines.join("\n")}\n`;
}

/** Which gate a case fails, in words: `coverage 0.5 is below min-coverage 0.8`. */
function describeFailure(failure: CaseFailure, entry: ReportCase, report: EvalReport): string {
  switch (failure) {
    case "below_min_coverage":
      return `coverage ${formatScore(entry.coverage ?? 0)} is below min-coverage ${formatScore(report.minCoverage)}`;
    case "not_correct":
      return `${describeCorrectness(entry)}, and correct_rate is below min-correct ${formatScore(report.minCorrect ?? 0)}`;
    case "regressed":
      return "regressed against the baseline";
    default:
      return "errored";
  }
}

// Characters XML 1.0 cannot hold at all, even escaped: C0 controls other than tab, newline and carriage
// return, lone surrogates, U+FFFE and U+FFFF.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

/**
 * Escapes text for XML element content or an attribute value (quotes and whitespace included, so an
 * attribute keeps its line breaks); characters XML cannot represent become U+FFFD.
 */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, "\uFFFD").replace(/[&<>"'\t\n\r]/g, (char) => ENTITIES[char] ?? char);
}
