import { toWire } from "../../client/index.js";
import type { EvalReport } from "./eval-report.js";

/**
 * The JSON report, in the HTTP API's snake_case like every JSON the command line prints: the run, the gate
 * (`min_coverage`, `passed`), the aggregate, usage, and every case in dataset order with its `index`.
 */
export function renderJsonReport(report: EvalReport): string {
  const cases = report.cases.map(({ label: _label, ...entry }) => entry);
  return `${JSON.stringify(toWire({ ...report, cases }), null, 2)}\n`;
}
