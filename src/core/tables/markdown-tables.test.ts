import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type MarkdownTable, parseMarkdownTables, parseTableLayouts } from "./markdown-tables.js";

// The cell texts of each table, header first: enough to read most cases at a glance.
const texts = (tables: MarkdownTable[]) =>
  tables.map((table) => [table.header, ...table.rows].map((row) => row.map((cell) => cell.text)));

describe("parseMarkdownTables", () => {
  it.each([
    {
      name: "outer pipes",
      text: "| Quarter | Revenue |\n| --- | --- |\n| Q3 | 120 |",
      tables: [
        [
          ["Quarter", "Revenue"],
          ["Q3", "120"],
        ],
      ],
    },
    {
      name: "no outer pipes",
      text: "Quarter | Revenue\n--- | ---\nQ3 | 120",
      tables: [
        [
          ["Quarter", "Revenue"],
          ["Q3", "120"],
        ],
      ],
    },
    {
      name: "alignment colons in the delimiter row",
      text: "| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |",
      tables: [
        [
          ["a", "b", "c"],
          ["1", "2", "3"],
        ],
      ],
    },
    {
      name: "escaped pipe stays in the cell",
      text: "| name | value |\n| --- | --- |\n| a \\| b | 5 |",
      tables: [
        [
          ["name", "value"],
          ["a | b", "5"],
        ],
      ],
    },
    {
      name: "empty first header cell",
      text: "|  | 2019 | 2018 |\n| --- | --- | --- |\n| Other | 44.1 | 56.7 |",
      tables: [
        [
          ["", "2019", "2018"],
          ["Other", "44.1", "56.7"],
        ],
      ],
    },
    {
      name: "short rows are padded, long rows cut",
      text: "| a | b |\n| - | - |\n| 1 |\n| 1 | 2 | 3 |",
      tables: [
        [
          ["a", "b"],
          ["1", ""],
          ["1", "2"],
        ],
      ],
    },
    {
      name: "header with no body",
      text: "| a | b |\n| --- | --- |",
      tables: [[["a", "b"]]],
    },
    {
      name: "a blank line ends the table",
      text: "| a |\n| --- |\n| 1 |\n\n| 2 |",
      tables: [[["a"], ["1"]]],
    },
    {
      name: "a prose line without a pipe ends the table",
      text: "a | b\n--- | ---\n1 | 2\nRevenue rose 5%.",
      tables: [
        [
          ["a", "b"],
          ["1", "2"],
        ],
      ],
    },
    {
      name: "delimiter with another cell count is no table",
      text: "| a | b |\n| --- |\n| 1 | 2 |",
      tables: [],
    },
    {
      name: "a delimiter row needs dashes",
      text: "| a | b |\n| x | y |\n| 1 | 2 |",
      tables: [],
    },
    {
      name: "a lone dash line is not a table",
      text: "Title\n---\ntext",
      tables: [],
    },
    {
      name: "CRLF line endings",
      text: "| a | b |\r\n| --- | --- |\r\n| 1 | 2 |\r\n",
      tables: [
        [
          ["a", "b"],
          ["1", "2"],
        ],
      ],
    },
    {
      name: "two tables with prose between",
      text: "Intro\n| a |\n| - |\n| 1 |\nMiddle\nx | y\n- | -\n2 | 3\n",
      tables: [
        [["a"], ["1"]],
        [
          ["x", "y"],
          ["2", "3"],
        ],
      ],
    },
    { name: "no pipe at all", text: "Revenue was 5.", tables: [] },
  ])("$name", ({ text, tables }) => {
    expect(texts(parseMarkdownTables(text))).toEqual(tables);
  });

  it("gives cell and table offsets into the original text", () => {
    const text = "Intro.\n| Quarter | Revenue |\n|---|---|\n| Q3 | $1,200 |\nAfter.";
    expect(parseMarkdownTables(text)).toEqual([
      {
        header: [
          { text: "Quarter", start: 9, end: 16 },
          { text: "Revenue", start: 19, end: 26 },
        ],
        rows: [
          [
            { text: "Q3", start: 41, end: 43 },
            { text: "$1,200", start: 46, end: 52 },
          ],
        ],
        start: 7,
        end: 54,
      },
    ]);
  });

  it("every cell's range slices to its text, with `\\|` read as `|`", () => {
    const cellText = fc.stringMatching(/^[a-z0-9 ,.$|]{0,8}$/).map((value) => value.replaceAll("|", "\\|"));
    const table = fc
      .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }))
      .chain(([columns, rows]) =>
        fc.array(fc.array(cellText, { minLength: columns, maxLength: columns }), {
          minLength: rows + 1,
          maxLength: rows + 1,
        }),
      );
    fc.assert(
      fc.property(table, fc.boolean(), (rows, outerPipes) => {
        const [header = [], ...body] = rows;
        // Without outer pipes a blank edge cell is lost (` | x` is one pipe then `x`), and a single column
        // would be prose: those tables need their outer pipes.
        const blankEdge = rows.some((row) => row[0]?.trim() === "" || row[row.length - 1]?.trim() === "");
        const piped = outerPipes || blankEdge || header.length === 1;
        const wrap = (cells: string[]) => (piped ? `| ${cells.join(" | ")} |` : ` ${cells.join(" | ")} `);
        const text = [wrap(header), wrap(header.map(() => "---")), ...body.map(wrap)].join("\n");
        const [parsed] = parseMarkdownTables(text);
        expect(parsed).toBeDefined();
        for (const row of [parsed?.header ?? [], ...(parsed?.rows ?? [])]) {
          for (const cell of row)
            expect(text.slice(cell.start, cell.end).replaceAll("\\|", "|")).toBe(cell.text);
        }
        expect(texts(parseMarkdownTables(text))).toEqual([
          rows.map((row) => row.map((cell) => cell.trim().replaceAll("\\|", "|"))),
        ]);
      }),
    );
  });
});

describe("parseTableLayouts", () => {
  // Lines of a few shapes, so tables start, end, pad short rows, drop extra cells and escape pipes.
  const line = fc.constantFrom(
    "| a | b |",
    "|---|---|",
    "| --- | :-: | --: |",
    "| x |",
    "| 1 | 2 | 3 | 4 |",
    "a | b",
    "--- | ---",
    "| \\| | y |",
    "|  | z |",
    "prose",
    "",
    "| é 𝑥 |  7 ,5 |\r",
  );

  it("finds the tables parseMarkdownTables finds, with the same header, row labels and cell offsets", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 14 }), (lines) => {
        const text = lines.join("\n");
        const tables = parseMarkdownTables(text);
        const layouts = parseTableLayouts(text);
        expect(layouts.map(({ header, start, end }) => ({ header, start, end }))).toEqual(
          tables.map(({ header, start, end }) => ({ header, start, end })),
        );
        layouts.forEach((layout, index) => {
          const rows = (tables[index] as MarkdownTable).rows;
          expect(layout.rowLabels).toEqual(rows.map((row) => row[0]));
          expect([...layout.cellOffsets]).toEqual(
            rows.flatMap((row) => row.flatMap((cell) => [cell.start, cell.end])),
          );
        });
      }),
      { numRuns: 1000 },
    );
  });
});
