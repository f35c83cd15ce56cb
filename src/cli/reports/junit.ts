import { basename } from "node:path";
import { describeDroppedClaims, droppedClaimLines } from "./dropped-claims.js";
import type { EvalReport } from "./eval-report.js";
import { describeCase, formatScore } from "./format.js";

/**
 * The JUnit XML report: one test suite named after the dataset, one test case per dataset case. An errored
 * case has an `<error>`, a case whose coverage is below `minCoverage` a `<failure>`; the aggregate goes in
 * the suite's properties. A failure's message names the claims the case dropped and why.
 */
export function renderJunitReport(report: EvalReport): string {
  const errors = report.cases.filter((entry) => entry.error !== undefined).length;
  const failures = report.cases.filter((entry) => entry.error === undefined && !entry.passed).length;
  const counts = `tests="${report.cases.length}" failures="${failures}" errors="${errors}"`;
  const suite = basename(report.dataset);
  const properties: [string, string | number | boolean][] = [
    ["model", report.model],
    ["mode", report.mode],
    ["min_coverage", report.minCoverage],
    ["passed", report.passed],
    ["coverage_mean", report.aggregate.coverageMean],
    ["unsupported_rate", report.aggregate.unsupportedRate],
    ["n", report.aggregate.n],
    ["errored", report.aggregate.errored],
    ["model_calls", report.usage.modelCalls],
    ["total_tokens", report.usage.totalTokens],
  ];
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="verified eval" ${counts}>`,
    `  <testsuite name="${escapeXml(suite)}" ${counts} skipped="0">`,
    "    <properties>",
    ...properties.map(
      ([name, value]) => `      <property name="${name}" value="${escapeXml(String(value))}"/>`,
    ),
    "    </properties>",
  ];
  for (const entry of report.cases) {
    const open = `    <testcase name="${escapeXml(entry.label)}" classname="${escapeXml(suite)}"`;
    if (entry.error !== undefined) {
      lines.push(
        `${open}>`,
        `      <error type="${escapeXml(entry.error.code)}" message="${escapeXml(entry.error.message)}">${escapeXml(describeCase(entry))}</error>`,
        "    </testcase>",
      );
    } else if (!entry.passed) {
      const dropped = describeDroppedClaims(entry);
      const message = `coverage ${formatScore(entry.coverage ?? 0)} is below min-coverage ${formatScore(report.minCoverage)}${dropped === "" ? "" : `; ${dropped}`}`;
      const body = [describeCase(entry), ...droppedClaimLines(entry).map((line) => `dropped ${line}`)].join(
        "\n",
      );
      lines.push(
        `${open}>`,
        `      <failure type="below_min_coverage" message="${escapeXml(message)}">${escapeXml(body)}</failure>`,
        "    </testcase>",
      );
    } else {
      lines.push(`${open}/>`);
    }
  }
  lines.push("  </testsuite>", "</testsuites>");
  return `${lines.join("\n")}\n`;
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
