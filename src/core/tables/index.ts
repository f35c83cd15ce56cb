export { type MarkdownTable, parseMarkdownTables, type TableCell } from "./markdown-tables.js";
export { checkRowNumbers } from "./row-check.js";
