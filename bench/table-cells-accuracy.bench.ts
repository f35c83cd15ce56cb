// Accuracy of `check_numbers: "row"` on 1,637 real table cells (TAT-QA and WikiTableQuestions, see
// ../shared/data/README.md). Each cell becomes a claim that must pass, and wrong-row and wrong-column
// claims (another row's value in the same column, another column's value in the same row) that must be
// dropped. A negative whose numbers all equal the true cell's is skipped: no number check can tell them
// apart. Set VERBOSE=1 to print the misses.
import { readFileSync } from "node:fs";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import { checkNumbers } from "../src/core/claims/verify-claims.js";
import { findNumbers } from "../src/core/numbers/scan.js";
import type { PreparedSource } from "../src/core/prepared-source.js";
import { stripTrailingParenthetical } from "../src/core/tables/label-text.js";
import { type MarkdownTable, parseMarkdownTables } from "../src/core/tables/markdown-tables.js";
import type { Range } from "../src/core/types.js";

interface CellLine {
  id: string;
  table_markdown: string;
  row_label: string;
  column: string;
  value: string;
}

interface Template {
  name: string;
  claim: (rowLabel: string, column: string, value: string) => string;
}

const templates: Template[] = [
  {
    name: "`The {row} for {column} was {value}.`",
    claim: (row, column, value) => `The ${row} for ${column} was ${value}.`,
  },
  {
    name: "`In {column}, {row} was {value}.`",
    claim: (row, column, value) => `In ${column}, ${row} was ${value}.`,
  },
  // Looser wording: labels lower-cased and shorn of a trailing parenthetical, as a model might shorten them.
  {
    name: "`{short row, lower case} ({short column}): {value}`",
    claim: (row, column, value) => {
      const shortRow = (stripTrailingParenthetical(row) ?? row).toLowerCase();
      return `${shortRow} (${stripTrailingParenthetical(column) ?? column}): ${value}`;
    },
  },
];

interface Tally {
  passed: number;
  total: number;
  misses: string[];
}

// One template's results on one dataset (or all of them).
interface Results {
  kept: Tally;
  wrongRow: Tally;
  wrongColumn: Tally;
  skippedSameNumber: number;
  skippedNoNumber: number;
}

const tally = (): Tally => ({ passed: 0, total: 0, misses: [] });
const results = (): Results => ({
  kept: tally(),
  wrongRow: tally(),
  wrongColumn: tally(),
  skippedSameNumber: 0,
  skippedNoNumber: 0,
});

const DATASETS = ["all", "TAT-QA", "WTQ"] as const;

function keys(text: string): string[] {
  return findNumbers(text).map((number) => number.key);
}

function lineRange(text: string, offset: number): Range {
  const start = text.lastIndexOf("\n", offset) + 1;
  const newline = text.indexOf("\n", offset);
  return [start, newline < 0 ? text.length : newline];
}

function percent(tallied: Tally): string {
  return tallied.total === 0 ? "n/a" : `${((100 * tallied.passed) / tallied.total).toFixed(2)}%`;
}

/** Runs the benchmark and prints a markdown table of kept and caught rates per claim template and dataset. */
export default async function run(): Promise<void> {
  const file = findBenchData("table_cells.jsonl");
  if (file === undefined) {
    console.log(missingBenchData("table_cells.jsonl"));
    return;
  }
  const cells = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as CellLine);

  const sources = new Map<string, { source: PreparedSource; table: MarkdownTable }>();
  const verbose = process.env.VERBOSE === "1";
  const tables = new Set(cells.map((cell) => cell.table_markdown)).size;
  console.log(`${cells.length} cells from ${tables} tables; the quote is the cell's table row.\n`);
  console.log(
    "| template | data | correct kept | wrong-row caught | wrong-column caught | negatives skipped: same number / no number |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const template of templates) {
    const byDataset = new Map(DATASETS.map((name) => [name, results()]));
    for (const cell of cells) {
      let prepared = sources.get(cell.table_markdown);
      if (prepared === undefined) {
        const table = parseMarkdownTables(cell.table_markdown)[0];
        if (table === undefined) throw new Error(`${cell.id}: no table parsed`);
        prepared = { source: { id: cell.id, text: cell.table_markdown }, table };
        sources.set(cell.table_markdown, prepared);
      }
      const { source, table } = prepared;
      const row = table.rows.findIndex((each) => each[0]?.text === cell.row_label);
      const column = table.header.findIndex((each) => each.text === cell.column);
      const target = table.rows[row]?.[column];
      if (target === undefined || target.text !== cell.value) throw new Error(`${cell.id}: cell not found`);
      // The quote is the row's line of the table, as a model citing the row would copy it.
      const quoteRange = lineRange(source.text, target.start);
      const into = [
        byDataset.get("all") as Results,
        byDataset.get(cell.id.startsWith("tatqa") ? "TAT-QA" : "WTQ") as Results,
      ];
      const check = (value: string, pick: (each: Results) => Tally, mustPass: boolean): void => {
        const claim = template.claim(cell.row_label, cell.column, value);
        const passed = checkNumbers(claim, source, quoteRange, "row");
        for (const each of into) {
          const tallied = pick(each);
          tallied.total += 1;
          if (passed === mustPass) tallied.passed += 1;
          else tallied.misses.push(`${cell.id}: ${claim}`);
        }
      };
      check(cell.value, (each) => each.kept, true);

      const trueKeys = new Set(keys(cell.value));
      const negative = (value: string, pick: (each: Results) => Tally): void => {
        const claimed = keys(value);
        if (claimed.length === 0) {
          for (const each of into) each.skippedNoNumber += 1;
        } else if (claimed.every((key) => trueKeys.has(key))) {
          for (const each of into) each.skippedSameNumber += 1;
        } else {
          check(value, pick, false);
        }
      };
      table.rows.forEach((other, index) => {
        if (index !== row) negative(other[column]?.text ?? "", (each) => each.wrongRow);
      });
      (table.rows[row] ?? []).forEach((other, index) => {
        if (index !== column && index !== 0) negative(other.text, (each) => each.wrongColumn);
      });
    }
    const show = (tallied: Tally) => `${percent(tallied)} (${tallied.passed}/${tallied.total})`;
    for (const [name, each] of byDataset) {
      console.log(
        `| ${template.name} | ${name} | ${show(each.kept)} | ${show(each.wrongRow)} | ${show(each.wrongColumn)} | ` +
          `${each.skippedSameNumber} / ${each.skippedNoNumber} |`,
      );
    }
    if (verbose) {
      const all = byDataset.get("all") as Results;
      for (const [name, tallied] of [
        ["kept", all.kept],
        ["wrong-row", all.wrongRow],
        ["wrong-column", all.wrongColumn],
      ] as const) {
        for (const miss of tallied.misses) console.log(`  miss ${name}: ${miss}`);
      }
    }
  }
  console.log("\nGoals: correct kept >= 99.5%, wrong-row and wrong-column caught >= 99%.");
}
