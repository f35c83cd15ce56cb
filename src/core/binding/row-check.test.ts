import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NumberSpans } from "../numbers/index.js";
import type { PreparedSource } from "../prepared-source.js";
import type { StepCounter } from "../step-counter.js";
import type { Range } from "../types.js";
import { Mentions } from "../wording/index.js";
import { checkRowNumbers, explainRowNumbers, someMentionBetweenNumbers } from "./row-check.js";

// The spec's table: header Quarter, Revenue, Profit; prose before and after it.
const SPEC = [
  "Quarterly results follow.",
  "| Quarter | Revenue | Profit |",
  "| --- | --- | --- |",
  "| Q2 | 1,100 | 210 |",
  "| Q3 | 1,250 | 230 |",
  "Analysts: 12 covered the stock in 2024.",
].join("\n");

const source = (text: string): PreparedSource => ({ id: "s", text });

// The range of `quote` in `text`, as the matcher would report it.
const rangeOf = (text: string, quote: string): Range => {
  const start = text.indexOf(quote);
  if (start < 0) throw new Error(`quote not in source: ${quote}`);
  return [start, start + quote.length];
};

const check = (text: string, claim: string, quote: string) =>
  checkRowNumbers(claim, source(text), rangeOf(text, quote));

describe("checkRowNumbers: the spec example", () => {
  it.each([
    { name: "Q3 revenue claimed as Q3 revenue passes", claim: "Q3 revenue was 1,250.", grounded: true },
    {
      name: "the Q3 profit figure claimed as Q3 revenue is dropped",
      claim: "Q3 revenue was 230.",
      grounded: false,
    },
    { name: "the Q2 revenue claimed for Q3 is dropped", claim: "Q3 revenue was 1,100.", grounded: false },
    {
      name: "another spelling of the right number passes",
      claim: "Q3 revenue was $1250.00.",
      grounded: true,
    },
  ])("$name", ({ claim, grounded }) => {
    expect(check(SPEC, claim, "| Q3 | 1,250 | 230 |")).toBe(grounded);
  });
});

describe("checkRowNumbers: which cells a claim may use", () => {
  it.each([
    { name: "only a row named: a cell of that row", claim: "Q3 brought 230.", grounded: true },
    { name: "only a row named: not another row", claim: "Q3 brought 210.", grounded: false },
    { name: "only a column named: the quoted row's cell", claim: "Profit reached 230.", grounded: true },
    { name: "only a column named: not another row's cell", claim: "Profit reached 210.", grounded: false },
    { name: "only a column named: not another column", claim: "Profit reached 1,100.", grounded: false },
    {
      name: "several values, each in a named cell",
      claim: "Q3 revenue 1,250 and profit 230.",
      grounded: true,
    },
    { name: "several values, one outside", claim: "Q3 revenue 1,250 and profit 210.", grounded: false },
    {
      name: "two rows named: each number its own row",
      claim: "Q2 profit 210, Q3 profit 230.",
      grounded: true,
    },
    { name: "two rows named: numbers swapped", claim: "Q2 profit 230, Q3 profit 210.", grounded: false },
    { name: "case and whitespace do not matter", claim: "q3   REVENUE was 1,250.", grounded: true },
    { name: "labels only at word boundaries", claim: "Q33 revenues were 1,100.", grounded: false },
    { name: "no numbers", claim: "Q3 revenue rose.", grounded: true },
  ])("$name", ({ claim, grounded }) => {
    expect(check(SPEC, claim, "| Q3 | 1,250 | 230 |")).toBe(grounded);
  });

  it.each([
    { name: "names nothing: a number on the quote's line", claim: "12 analysts covered it.", grounded: true },
    { name: "names nothing: not a number elsewhere", claim: "1,250 analysts covered it.", grounded: false },
    {
      name: "names nothing: every number on the line",
      claim: "12 analysts in 2024 and 13 later.",
      grounded: false,
    },
  ])("$name", ({ claim, grounded }) => {
    expect(check(SPEC, claim, "covered the stock")).toBe(grounded);
  });

  it("reads the lines a multi-line quote spans", () => {
    const text = "Revenue was 5\nand profit 7.\nCosts were 9.";
    expect(check(text, "Revenue 5, profit 7.", "5\nand profit")).toBe(true);
    expect(check(text, "Costs 9.", "5\nand profit")).toBe(false);
  });

  it("with no table, numbers must be on the quote's line", () => {
    const text = "Revenue was 5 in Q3.\nProfit was 7.";
    expect(check(text, "Q3 revenue was 5.", "Revenue was 5")).toBe(true);
    expect(check(text, "Q3 revenue was 7.", "Revenue was 5")).toBe(false);
  });
});

const TOTALS =
  "|  | East | West | Total |\n|---|---|---|---|\n| Widgets | 10 | 15 | 25 |\n| Gadgets | 20 | 25 | 45 |\n| Total | 30 | 40 | 70 |";

describe("checkRowNumbers: labels", () => {
  const YEARS = [
    "|  | 2019 | 2018 | September 30, 2019 |",
    "| --- | --- | --- | --- |",
    "| Fixed Price | $  1,452.4 | $  1,146.2 | 3 |",
    "| Other | 44.1 | 56.7 | (182,601) |",
    "| Total sales | $1,496.5 | $1,202.9 | 2.7% |",
  ].join("\n");

  it.each([
    { name: "a year column is context, not a value", claim: "In 2019, Other was 44.1.", grounded: true },
    { name: "the other year's value is dropped", claim: "In 2019, Other was 56.7.", grounded: false },
    {
      name: "numbers in a date label are context",
      claim: "Other at September 30, 2019 was -182,601.",
      grounded: true,
    },
    {
      name: "longest label wins: Total sales over Total",
      claim: "Total sales for 2018 were $1,202.9.",
      grounded: true,
    },
    { name: "a year alone is the value and names nothing", claim: "Sales peaked in 2019.", grounded: false },
    { name: "percent cell", claim: "Total sales at September 30, 2019: 2.7%.", grounded: true },
  ])("$name", ({ claim, grounded }) => {
    expect(check(YEARS, claim, "| Other | 44.1 |")).toBe(grounded);
  });

  it.each([
    { name: "a label matches without its parenthetical", claim: "Q3 revenue was 1,250.", grounded: true },
    { name: "the full label matches too", claim: "Q3 Revenue ($M) was 1,250.", grounded: true },
    { name: "unless another label is exactly that text", claim: "Q3 profit was 240.", grounded: false },
    { name: "that other label is then the one named", claim: "Q3 profit was 230.", grounded: true },
  ])("$name", ({ claim, grounded }) => {
    const text =
      "| Quarter | Revenue ($M) | Profit | Profit (adjusted) |\n|---|---|---|---|\n| Q3 | 1,250 | 230 | 240 |";
    expect(check(text, claim, "| Q3 |")).toBe(grounded);
  });

  it.each([
    {
      name: "a year row label is the value: on the quote's line",
      claim: "Paris won in 2019.",
      grounded: true,
    },
    {
      name: "a year row label as value of a named column",
      claim: "The Year Paris won was 2019.",
      grounded: true,
    },
    { name: "a year that is not in the column", claim: "The Year Paris won was 2020.", grounded: false },
    { name: "a rank as value among named labels", claim: "Rank 1 for Gold was 5.", grounded: true },
    {
      name: "a value that is also a row label names nothing",
      claim: "The Gold of 2019 was 2018.",
      grounded: false,
    },
    { name: "naming two columns widens the cells", claim: "The Gold or Rank of 2019 was 1.", grounded: true },
  ])("$name", ({ claim, grounded }) => {
    const text =
      "| Year | Champion | Gold | Rank |\n|---|---|---|---|\n| 2018 | Lyon | 4 | 2 |\n| 2019 | Paris | 5 | 1 |";
    expect(check(text, claim, "| 2019 | Paris |")).toBe(grounded);
  });

  it.each([
    { name: "Total with a column named is the row", claim: "Total for East was 30.", grounded: true },
    { name: "Total row with a wrong column value", claim: "Total for East was 40.", grounded: false },
    { name: "Total with a row named is the column", claim: "Widgets in Total: 25.", grounded: true },
    { name: "Total column with a wrong row value", claim: "Widgets in Total: 45.", grounded: false },
    { name: "Total alone is the Total row and column", claim: "The Total was 70.", grounded: true },
    { name: "Total alone: not another cell of its row", claim: "The Total was 30.", grounded: false },
  ])("$name (quoting the Total row)", ({ claim, grounded }) => {
    expect(check(TOTALS, claim, "| Total | 30 |")).toBe(grounded);
  });

  it.each([
    { name: "Total is the column of the quoted row", claim: "The Total was 25.", grounded: true },
    { name: "not the Total row's total", claim: "The Total was 70.", grounded: false },
    {
      name: "a named column and Total: the quoted row's column",
      claim: "Total for East was 10.",
      grounded: true,
    },
    { name: "not the Total row's cell of that column", claim: "Total for East was 30.", grounded: false },
  ])("$name (quoting another row)", ({ claim, grounded }) => {
    expect(check(TOTALS, claim, "| Widgets |")).toBe(grounded);
  });

  it.each([
    {
      name: "the only column label of a claim naming a row is the column",
      claim: "The Open for 2008 was Q2.",
      grounded: true,
    },
    {
      name: "the last of two column labels is a value",
      claim: "The Open for 2008 was 2007.",
      grounded: false,
    },
  ])("$name", ({ claim, grounded }) => {
    const text = "| Tournament | 2007 | 2008 |\n|---|---|---|\n| Open | Q1 | Q2 |\n| Cup | 2R | 1R |";
    expect(check(text, claim, "| Open |")).toBe(grounded);
  });

  it.each([
    {
      name: "a $ column is named apart from numbers",
      claim: "Impairment for $ was (12,830).",
      grounded: true,
    },
    { name: "a $ beside a number is its unit", claim: "Impairment was $14,740 in 2018.", grounded: true },
    { name: "a % column is named apart", claim: "Impairment for % was 87.", grounded: true },
    { name: "the wrong value for the % column", claim: "Impairment for % was 1,910.", grounded: false },
  ])("$name", ({ claim, grounded }) => {
    const text =
      "|  | 2019 | 2018 | $ | % |\n|---|---|---|---|---|\n| Impairment | $1,910 | $14,740 | $(12,830) | (87%) |";
    expect(check(text, claim, "| Impairment |")).toBe(grounded);
  });

  it("binds a claim to one table at a time", () => {
    const text = [
      "| Quarter | Revenue |\n|---|---|\n| Q3 | 100 |",
      "",
      "| Region | Staff |\n|---|---|\n| East | 7 |",
    ].join("\n");
    expect(check(text, "Q3 revenue was 100.", "| Q3 |")).toBe(true);
    expect(check(text, "East staff was 7.", "| Q3 |")).toBe(true);
    expect(check(text, "Q3 revenue was 100 with East staff 7.", "| Q3 |")).toBe(false);
    expect(check(text, "Q3 revenue was 7.", "| Q3 |")).toBe(false);
  });
});

// The row property over verbs and word orders, and verdicts with a prepared source reused across claims,
// are in row-guarantees.test.ts; the claims this file once pinned are in verdict-ledger.json.

describe("explainRowNumbers over several tables", () => {
  const text =
    "| Station | Intake | Output |\n|---|---|---|\n| North | 10 | 11 |\n| South | 20 | 21 |\n\nMore.\n\n" +
    "| Station | Intake | Output |\n|---|---|---|\n| East | 30 | 31 |\n| West | 40 | 41 |";
  const quote = "| West | 40 | 41 |";
  const explain = (claim: string) => explainRowNumbers(claim, source(text), rangeOf(text, quote));

  it("holds a value of the quoted row, whose table is read first", () => {
    expect(explain("West output was 41.")).toBeNull();
  });

  it("reports the first table's miss when no table holds the value, though the quoted table is read first", () => {
    expect(explain("West output was 999.")).toEqual({
      number: "999",
      checked: "cells",
      cells: [
        { row: "North", column: "Output", text: "11" },
        { row: "South", column: "Output", text: "21" },
      ],
    });
  });
});

describe("explainRowNumbers: what it reads for one claim is bounded", () => {
  // `tables` small tables, each with a `Total` row; table t holds `t × 10` in it.
  const tablesOf = (tables: number) =>
    Array.from(
      { length: tables },
      (_, table) => `| Item | Amount |\n|---|---|\n| Total | ${(table + 1) * 10} |\n| Other | 1 |`,
    ).join("\n\nNext.\n\n");

  it("reads every table a people-sized claim names: a value held in the 200th table holds", () => {
    const text = `Totals.\n\n${tablesOf(200)}`;
    expect(explainRowNumbers("The total was 2000.", source(text), rangeOf(text, "Totals."))).toBeNull();
    expect(explainRowNumbers("The total was 2005.", source(text), rangeOf(text, "Totals."))?.number).toBe(
      "2005",
    );
  });

  it("drops a claim that names labels past its allowance, with no cell listed, instead of reading on", () => {
    // 600 tables all labelling a row `Total`, and a claim naming `total` at every word: reading it all
    // would be 600 tables × 20,000 mentions; the value is in the last table, past the allowance.
    const text = `Totals.\n\n${tablesOf(600)}`;
    const claim = `${"total ".repeat(20_000)}6000`;
    expect(explainRowNumbers(claim, source(text), rangeOf(text, "Totals."))).toEqual({
      number: "6000",
      checked: "cells",
      cells: [],
    });
    // A claim naming `total` once is read in full, and holds.
    expect(explainRowNumbers("The total was 6000.", source(text), rangeOf(text, "Totals."))).toBeNull();
  });

  it("drops a claim naming labels nested in one another (`a`, `a a`, …) at every word", () => {
    const rows = Array.from({ length: 300 }, (_, index) => `| ${"a ".repeat(index + 1)}| ${index + 1} |`);
    const text = `| Label | Value |\n|---|---|\n${rows.join("\n")}`;
    const claim = `${"a ".repeat(100_000)}300`;
    expect(explainRowNumbers(claim, source(text), rangeOf(text, "| a | 1 |"))).toEqual({
      number: "300",
      checked: "cells",
      cells: [],
    });
  });
});

describe("someMentionBetweenNumbers (R40's window): steps", () => {
  // A claim of `tokens` (a number, a one-word mention, or a mention spanning `width` tokens from there),
  // with the window read for every number and no mention passing, so that every window is read in full.
  const stepsFor = (tokens: readonly { number: boolean; width: number }[]) => {
    let text = "";
    const numberSpans: { start: number; end: number }[] = [];
    const starts: number[] = [];
    for (const token of tokens) {
      if (text !== "") text += " ";
      starts.push(text.length);
      if (token.number) numberSpans.push({ start: text.length, end: text.length + 2 });
      text += token.number ? "17" : "xx";
    }
    const list = tokens.flatMap((token, at) => {
      if (token.number) return [];
      const last = Math.min(at + token.width, tokens.length) - 1;
      return [
        { start: starts[at] as number, end: (starts[last] as number) + 2, table: 0, rows: [], columns: [0] },
      ];
    });
    const numbers = NumberSpans.of(text, numberSpans);
    const mentions = Mentions.of(list);
    const counter: StepCounter = { steps: 0 };
    for (let index = 0; index < numbers.length; index += 1)
      someMentionBetweenNumbers(numbers, mentions, numbers.start(index), () => false, counter);
    const searches = Math.ceil(Math.log2(numbers.length + 1)) + Math.ceil(Math.log2(mentions.length + 1));
    return { steps: counter.steps, bound: 2 * mentions.length + numbers.length * (1 + searches) };
  };

  it("reads each mention at most twice, plus one per number and its two binary searches, on any layout", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ number: fc.boolean(), width: fc.integer({ min: 1, max: 4 }) }), {
          maxLength: 300,
        }),
        (tokens) => {
          const { steps, bound } = stepsFor(tokens);
          expect(steps).toBeLessThanOrEqual(bound);
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    { name: "every word a mention, a number every third word", period: 3 },
    { name: "every word a mention, a number every other word", period: 2 },
    { name: "a thousand mentions between two numbers", period: 1000 },
  ])(
    "$name: stays within 2 reads per mention plus the searches as the claim doubles from 1× to 64×",
    ({ period }) => {
      for (let scale = 1; scale <= 64; scale *= 2) {
        const tokens = Array.from({ length: 1000 * scale }, (_, at) => ({
          number: at % period === 0,
          width: 1,
        }));
        const { steps, bound } = stepsFor(tokens);
        expect(steps).toBeLessThanOrEqual(bound);
      }
    },
  );
});
