import { describe, expect, it } from "vitest";
import { type Block, splitBlocks } from "./blocks.js";

/** The blocks with their spans replaced by the text they cover, for readable expectations. */
function blocksAsText(text: string): unknown[] {
  const slice = (span: { start: number; end: number } | null) =>
    span === null ? null : text.slice(span.start, span.end);
  return splitBlocks(text).map((block: Block) =>
    block.kind === "line"
      ? { line: slice(block.line), next: slice(block.next) }
      : { header: slice(block.header), rows: block.rows.map(slice) },
  );
}

describe("splitBlocks", () => {
  it.each([
    {
      name: "lines are trimmed; next is the line below unless a blank line separates them",
      text: "  Bill to:  \nJane Doe\n\nEnd",
      blocks: [
        { line: "Bill to:", next: "Jane Doe" },
        { line: "Jane Doe", next: null },
        { line: "End", next: null },
      ],
    },
    {
      name: "a table with a header",
      text: "| Quarter | Revenue |\n|---|:--:|\n| Q1 | 3.9 |\n| Q2 | 4.2 |",
      blocks: [{ header: "| Quarter | Revenue |", rows: ["| Q1 | 3.9 |", "| Q2 | 4.2 |"] }],
    },
    {
      name: "a table without a header",
      text: "| Subtotal | 10 |\n| Total | 12 |",
      blocks: [{ header: null, rows: ["| Subtotal | 10 |", "| Total | 12 |"] }],
    },
    {
      name: "a table needs no outer pipes: the same table the row check reads",
      text: "Quarter | Revenue\n---|---\nQ1 | 3.9\nQ2 | 4.2",
      blocks: [{ header: "Quarter | Revenue", rows: ["Q1 | 3.9", "Q2 | 4.2"] }],
    },
    {
      name: "a prose line ends a table",
      text: "| A | B |\n|---|---|\n| 1 | 2 |\nDone.",
      blocks: [
        { header: "| A | B |", rows: ["| 1 | 2 |"] },
        { line: "Done.", next: null },
      ],
    },
    {
      name: "a blank line ends a table",
      text: "| A | B |\n|---|---|\n| 1 | 2 |\n\n| Total | 3 |",
      blocks: [
        { header: "| A | B |", rows: ["| 1 | 2 |"] },
        { header: null, rows: ["| Total | 3 |"] },
      ],
    },
    {
      name: "Windows and old Mac line ends",
      text: "One\r\nTwo\r\rThree",
      blocks: [
        { line: "One", next: "Two" },
        { line: "Two", next: null },
        { line: "Three", next: null },
      ],
    },
    { name: "empty text", text: "", blocks: [] },
  ])("$name", ({ text, blocks }) => {
    expect(blocksAsText(text)).toEqual(blocks);
  });
});
