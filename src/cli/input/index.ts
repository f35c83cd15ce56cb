export { readDataset } from "./dataset.js";
export { parseFieldFlags } from "./field-flags.js";
export { CliInputError } from "./input-error.js";
export { jsonElementLines, parseJsonDocument, readInputFile } from "./json-input.js";
export { readSourceFiles } from "./source-files.js";
