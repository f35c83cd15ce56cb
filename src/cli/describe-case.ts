import type { ReportCase } from "./build-eval-report.js";

/** A case's outcome in words, for tables: `2 of 3 claims grounded`, or its error code and message. */
export function describeCase(entry: ReportCase): string {
  if (entry.error !== undefined) return `${entry.error.code}: ${entry.error.message}`.replace(/\s+/g, " ");
  const citations = entry.citations ?? 0;
  const claims = citations + (entry.unsupported ?? 0);
  return claims === 0 ? "no claims" : `${citations} of ${claims} claims grounded`;
}
