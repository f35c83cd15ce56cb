import type pc from "picocolors";
import { describeDroppedClaim } from "./dropped-claims.js";
import { cappedList, markdownCode, terminalText } from "./escape.js";
import type { BaselineComparison, CaseChange } from "./eval-report.js";
import { formatScore } from "./format.js";

type Colors = ReturnType<typeof pc.createColors>;

/** Changed cases a report lists; the JSON report keeps them all. */
export const MAX_CHANGES_SHOWN = 20;

/** `3 regressed, 1 improved, 2 changed, 1 added, 0 removed, 40 unchanged`. */
export function describeComparison(comparison: BaselineComparison): string {
  const improved = comparison.changed.filter((entry) => entry.change > 0).length;
  const otherChanges = comparison.changed.length - comparison.regressed - improved;
  return [
    `${comparison.regressed} regressed`,
    `${improved} improved`,
    `${otherChanges} otherwise changed`,
    `${comparison.added.length} added`,
    `${comparison.removed.length} removed`,
    `${comparison.unchanged} unchanged`,
  ].join(", ");
}

function coverage(value: number | null): string {
  return value === null ? "error" : formatScore(value);
}

function signed(value: number): string {
  return value > 0 ? `+${formatScore(value)}` : value < 0 ? `-${formatScore(-value)}` : "0";
}

function outcome(entry: CaseChange): string {
  const parts: string[] = [];
  if (entry.regressed) parts.push("regressed");
  if (entry.correctness === "lost") parts.push("no longer correct");
  if (entry.correctness === "gained") parts.push("now correct");
  if (entry.newlyFailed.length > 0)
    parts.push(`newly failed: ${entry.newlyFailed.map(describeDroppedClaim).join("; ")}`);
  return parts.join("; ");
}

/**
 * The Markdown section of a baseline comparison: a summary line, then the changed cases with regressed ones
 * first, then added and removed cases. It goes right under the heading, so a step summary shows
 * regressions first.
 */
export function baselineMarkdown(comparison: BaselineComparison, cell: (text: string) => string): string[] {
  const shown = comparison.changed.slice(0, MAX_CHANGES_SHOWN);
  const lines = [
    `### Against the baseline \`${markdownCode(comparison.file)}\` (tolerance ${formatScore(comparison.tolerance)})`,
    "",
    `${describeComparison(comparison)}.`,
  ];
  if (shown.length > 0) {
    lines.push(
      "",
      "| case | before | after | change | outcome |",
      "|---|---:|---:|---:|---|",
      ...shown.map(
        (entry) =>
          `| ${cell(entry.label)} | ${coverage(entry.before)} | ${coverage(entry.after)} | ${signed(entry.change)} | ${cell(outcome(entry))} |`,
      ),
    );
    if (comparison.changed.length > shown.length)
      lines.push(
        "",
        `${comparison.changed.length - shown.length} more changed cases are in the JSON report.`,
      );
  }
  if (comparison.added.length > 0) lines.push("", `Added: ${cappedList(comparison.added.map(cell))}.`);
  if (comparison.removed.length > 0) lines.push("", `Removed: ${cappedList(comparison.removed.map(cell))}.`);
  return [...lines, ""];
}

/** The terminal summary's lines for a baseline comparison. */
export function baselineSummary(comparison: BaselineComparison, colors: Colors): string[] {
  const lines = [
    "",
    colors.bold(
      `Against the baseline ${terminalText(comparison.file)} (tolerance ${formatScore(comparison.tolerance)})`,
    ),
    `  ${describeComparison(comparison)}`,
  ];
  for (const entry of comparison.changed.slice(0, MAX_CHANGES_SHOWN)) {
    const paint = entry.regressed ? colors.red : (text: string) => text;
    lines.push(
      `  ${terminalText(entry.label)}  ${coverage(entry.before)} -> ${coverage(entry.after)} (${paint(signed(entry.change))})${entry.regressed ? ` ${colors.red("REGRESSED")}` : ""}`,
    );
    if (entry.correctness !== undefined)
      lines.push(`    ${entry.correctness === "lost" ? "no longer correct" : "now correct"}`);
    for (const claim of entry.newlyFailed)
      lines.push(`    newly failed: ${terminalText(describeDroppedClaim(claim))}`);
  }
  if (comparison.added.length > 0) lines.push(`  added: ${cappedList(comparison.added.map(terminalText))}`);
  if (comparison.removed.length > 0)
    lines.push(`  removed: ${cappedList(comparison.removed.map(terminalText))}`);
  return lines;
}
