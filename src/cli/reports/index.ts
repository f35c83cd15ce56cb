export {
  compareWithBaseline,
  describeRegressionGate,
  readBaselineReport,
  withBaseline,
} from "./compare-baseline.js";
export { buildEvalReport, type EvalReport, meetsThreshold } from "./eval-report.js";
export { formatCount, formatScore } from "./format.js";
export { renderJsonReport } from "./json.js";
export { createEvalProgress } from "./progress.js";
export { renderEvalSummary } from "./summary.js";
export { reportFormat, writeReport } from "./write-report.js";
