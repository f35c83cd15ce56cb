import type pc from "picocolors";
import { baselineSummary } from "./baseline-sections.js";
import { droppedClaimLines } from "./dropped-claims.js";
import { terminalText } from "./escape.js";
import type { EvalReport } from "./eval-report.js";
import {
  describeCase,
  describeCorrectness,
  describeGate,
  describeGrounding,
  formatScore,
  incorrectCases,
  lowestCases,
} from "./format.js";

type Colors = ReturnType<typeof pc.createColors>;

const LABEL_WIDTH = 32;

/**
 * The summary `verified eval` prints: the aggregate (n, errored, coverage_mean, unsupported_rate, model
 * calls, tokens), the ten lowest cases with their ids, and the gate's verdict.
 */
export function renderEvalSummary(report: EvalReport, colors: Colors): string {
  const { aggregate, usage } = report;
  const metrics: [string, string][] = [
    ["n", String(aggregate.n)],
    ["errored", aggregate.errored === 0 ? "0" : colors.red(String(aggregate.errored))],
    ["coverage_mean", formatScore(aggregate.coverageMean)],
    ["unsupported_rate", formatScore(aggregate.unsupportedRate)],
    ...(aggregate.correctRate === undefined
      ? []
      : [["correct_rate", formatScore(aggregate.correctRate)] as [string, string]]),
    ["model calls", usage.modelCalls.toLocaleString("en-US")],
    ["tokens", usage.totalTokens.toLocaleString("en-US")],
  ];
  const lines = [
    colors.bold(`verified eval: ${terminalText(report.dataset)}`) +
      colors.dim(` (model ${terminalText(report.model)}, mode ${report.mode})`),
    "",
    ...metrics.map(([name, value]) => `  ${name.padEnd(18)}${value}`),
  ];

  const lowest = lowestCases(report.cases);
  const labels = lowest.map((entry) => truncate(terminalText(entry.label), LABEL_WIDTH));
  const width = Math.max(4, ...labels.map((label) => label.length));
  lines.push(
    "",
    colors.bold(`Lowest coverage (${lowest.length} of ${report.cases.length})`),
    colors.dim(`  ${"case".padEnd(width)}  ${"coverage".padEnd(8)}  outcome`),
  );
  for (const [index, entry] of lowest.entries()) {
    const coverage = entry.coverage === undefined ? "error" : formatScore(entry.coverage);
    const paint = entry.passed ? (text: string) => text : colors.red;
    lines.push(
      `  ${(labels[index] ?? "").padEnd(width)}  ${paint(coverage.padEnd(8))}  ${terminalText(describeCase(entry))}`,
    );
    for (const line of droppedClaimLines(entry)) lines.push(colors.dim(`    dropped ${terminalText(line)}`));
  }
  const incorrect = incorrectCases(report.cases);
  if (incorrect.length > 0) {
    const total = report.cases.filter((entry) => entry.correct === false).length;
    lines.push("", colors.bold(`Not correct (${incorrect.length} of ${total})`));
    for (const entry of incorrect)
      lines.push(
        `  ${truncate(entry.label, LABEL_WIDTH)}  ${describeCorrectness(entry)}; ${describeGrounding(entry)}`,
      );
  }
  if (report.baseline !== undefined) lines.push(...baselineSummary(report.baseline, colors));

  const verdict = report.passed ? colors.green(colors.bold("PASS")) : colors.red(colors.bold("FAIL"));
  lines.push("", `${verdict} ${describeGate(report)}`);
  return `${lines.join("\n")}\n`;
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
