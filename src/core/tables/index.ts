export type { LabelEntry, LabelIndex } from "./label-index.js";
export { type MarkdownTable, parseMarkdownTables, type TableCell } from "./markdown-tables.js";
export { endsWord, type LabelOccurrence, standsApart, startsWord } from "./named-labels.js";
export type { TableBinding } from "./row-binding.js";
export { checkRowNumbers, explainRowNumbers } from "./row-check.js";
