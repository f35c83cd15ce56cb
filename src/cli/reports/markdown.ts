import { baselineMarkdown } from "./baseline-sections.js";
import { droppedClaimsMarkdown } from "./dropped-claims.js";
import { markdownCode, markdownText } from "./escape.js";
import type { EvalReport } from "./eval-report.js";
import { describeCase, describeGate, formatScore, incorrectCases, lowestCases } from "./format.js";

/**
 * The Markdown report (GitHub-flavoured, for `$GITHUB_STEP_SUMMARY` and pull-request comments): the verdict,
 * the comparison with a baseline (regressed cases first), the aggregate as a table, the ten lowest cases and
 * the claims they dropped.
 */
export function renderMarkdownReport(report: EvalReport): string {
  const { aggregate, usage } = report;
  const lowest = lowestCases(report.cases);
  const correct = aggregate.correctRate === undefined ? undefined : formatScore(aggregate.correctRate);
  const incorrect = incorrectCases(report.cases);
  const lines = [
    `## verified eval: ${report.passed ? "✅ passed" : "❌ failed"}`,
    "",
    ...(report.baseline === undefined ? [] : baselineMarkdown(report.baseline, cell)),
    `${describeGate(report)}. Dataset \`${code(report.dataset)}\`, model \`${code(report.model)}\`, mode \`${report.mode}\`.`,
    "",
    `| n | errored | coverage_mean | unsupported_rate |${correct === undefined ? "" : " correct_rate |"} model calls | tokens |`,
    `|---:|---:|---:|---:|${correct === undefined ? "" : "---:|"}---:|---:|`,
    `| ${aggregate.n} | ${aggregate.errored} | ${formatScore(aggregate.coverageMean)} | ${formatScore(aggregate.unsupportedRate)} |${correct === undefined ? "" : ` ${correct} |`} ${usage.modelCalls} | ${usage.totalTokens} |`,
    "",
    `### Lowest coverage (${lowest.length} of ${report.cases.length})`,
    "",
    "| case | coverage | outcome |",
    "|---|---:|---|",
    ...lowest.map(
      (entry) =>
        `| ${cell(entry.label)} | ${entry.coverage === undefined ? "error" : formatScore(entry.coverage)} | ${cell(describeCase(entry))} |`,
    ),
    ...droppedClaimsMarkdown(lowest, cell),
    ...(incorrect.length === 0
      ? []
      : [
          "",
          `### Not correct (${incorrect.length} of ${report.cases.filter((entry) => entry.correct === false).length})`,
          "",
          "| case | coverage | outcome |",
          "|---|---:|---|",
          ...incorrect.map(
            (entry) =>
              `| ${cell(entry.label)} | ${formatScore(entry.coverage ?? 0)} | ${cell(describeCase(entry))} |`,
          ),
        ]),
  ];
  return `${lines.join("\n")}\n`;
}

/** Text safe inside a table cell or a line: no pipes, line breaks, controls, HTML or Markdown markup. */
const cell = markdownText;

/** Text safe inside an inline code span. */
const code = markdownCode;
