export { readDataset } from "./dataset.js";
export { parseFieldFlags } from "./field-flags.js";
export {
  CliInputError,
  jsonElementLines,
  type ParsedJson,
  parseJsonDocument,
  readInputFile,
} from "./json-input.js";
export { readSourceFiles } from "./source-files.js";
