import type { UnsupportedClaim } from "../../client/index.js";
import { describeDrop } from "../../core/index.js";
import type { ReportCase } from "./eval-report.js";

/** Dropped claims a report shows per case; the JSON report keeps them all. */
export const MAX_DROPPED_SHOWN = 5;

/**
 * A claim and why it was dropped, on one line, with what failed when its `detail` says (`--explain`, and
 * `found_in` always) and what the model tried: `"Profit doubled." (quote_not_found: quote "profit doubled" in
 * report; near "Profit Doubled" at 10-24)`.
 */
export function describeDroppedClaim(claim: UnsupportedClaim): string {
  const tried: string[] = [];
  if (claim.quote !== undefined) tried.push(`quote ${oneLine(claim.quote)}`);
  if (claim.source !== undefined) tried.push(`in ${claim.source.replace(/\s+/g, " ")}`);
  const near =
    claim.near === undefined
      ? ""
      : `near ${oneLine(claim.near.quote)} at ${claim.near.range[0]}-${claim.near.range[1]}`;
  const why = describeDrop(claim);
  const parts = [why === undefined ? "" : why.replace(/\s+/g, " "), tried.join(" "), near].filter(
    (part) => part !== "",
  );
  return `${oneLine(claim.claim)} (${claim.reason}${parts.length === 0 ? "" : `: ${parts.join("; ")}`})`;
}

function oneLine(text: string): string {
  return JSON.stringify(text.replace(/\s+/g, " "));
}

/**
 * Up to `MAX_DROPPED_SHOWN` dropped claims of a case, one per entry, then `… and N more`; or one line saying
 * how many were dropped when the case's result was omitted (over its details share).
 */
export function droppedClaimLines(entry: ReportCase): string[] {
  if (entry.droppedNotListed !== undefined) {
    const claims = entry.droppedNotListed === 1 ? "1 claim" : `${entry.droppedNotListed} claims`;
    return [`${claims}, not listed: the case's result was over its share of the eval's details budget`];
  }
  const dropped = entry.dropped ?? [];
  const lines = dropped.slice(0, MAX_DROPPED_SHOWN).map(describeDroppedClaim);
  if (dropped.length > MAX_DROPPED_SHOWN) lines.push(`… and ${dropped.length - MAX_DROPPED_SHOWN} more`);
  return lines;
}

/** The dropped claims of a case in one line (`dropped: "…" (reason); "…" (reason)`), or "" when none. */
export function describeDroppedClaims(entry: ReportCase): string {
  const lines = droppedClaimLines(entry);
  return lines.length === 0 ? "" : `dropped: ${lines.join("; ")}`;
}

/**
 * The Markdown section listing, for each of `cases` (the lowest-scoring ones) that dropped claims, the claims
 * and why; no lines when none did. `cell` makes text safe inside a table cell.
 */
export function droppedClaimsMarkdown(
  cases: readonly ReportCase[],
  cell: (text: string) => string,
): string[] {
  const rows = cases.flatMap((entry) =>
    droppedClaimLines(entry).map((line) => `| ${cell(entry.label)} | ${cell(line)} |`),
  );
  if (rows.length === 0) return [];
  return [
    "",
    "### Dropped claims in the lowest cases",
    "",
    "| case | claim (reason) |",
    "|---|---|",
    ...rows,
  ];
}
