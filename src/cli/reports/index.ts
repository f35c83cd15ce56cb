export {
  compareWithBaseline,
  describeRegressionGate,
  readBaselineReport,
  withBaseline,
} from "./compare-baseline.js";
export {
  cappedList,
  MAX_LISTED_ITEMS,
  markdownCode,
  markdownText,
  terminalLines,
  terminalText,
} from "./escape.js";
export { buildEvalReport, type EvalReport, meetsThreshold } from "./eval-report.js";
export { formatCount, formatScore } from "./format.js";
export { createEvalProgress } from "./progress.js";
export { renderEvalSummary } from "./summary.js";
export { renderJsonReport, reportFormat, writeReport } from "./write-report.js";
