// Markdown tables as the core reads them: the one table reader, label text folding, and a table's cell
// numbers. Row binding (what a claim about a table names, and the rules it reads) is `src/core/binding`.
export { foldLabelText, stripTrailingParenthetical } from "./label-text.js";
export {
  type MarkdownTable,
  parseMarkdownTables,
  parseTableLayouts,
  splitRowCells,
  type TableCell,
  type TableLayout,
  tableSpans,
} from "./markdown-tables.js";
export { namesQuotedCell, TableNumbers } from "./table-numbers.js";
