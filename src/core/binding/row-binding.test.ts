import { describe, expect, it } from "vitest";
import { findNumberSpans } from "../numbers/scan.js";
import { foldLabelText, parseTableLayouts } from "../tables/index.js";
import { buildLabelIndex } from "./label-index.js";
import { findNamedLabels } from "./named-labels.js";
import { bindClaimToTable } from "./row-binding.js";
import { checkRowNumbers } from "./row-check.js";

const QUARTERS = "| Quarter | Revenue | Profit |\n|---|---|---|\n| Q2 | 100 | 10 |\n| Q3 | 120 | 12 |";
const YEARS = "|  | 2019 | 2018 | September 30, 2019 |\n|---|---|---|---|\n| Other | 44.1 | 56.7 | 3 |";
const RANKS = "| Rank | Nation | Gold |\n|---|---|---|\n| 1 | Brazil | 5 |\n| 3 | Chile | 2 |";
const TOTALS = "|  | A | Total |\n|---|---|---|\n| X | 1 | 2 |\n| Total | 3 | 4 |";

const bind = (markdown: string, claim: string) => {
  const folded = foldLabelText(claim);
  const occurrences = findNamedLabels(folded, buildLabelIndex(parseTableLayouts(markdown)));
  return bindClaimToTable(findNumberSpans(folded), occurrences);
};

describe("bindClaimToTable", () => {
  it.each([
    {
      name: "row and column named, one value",
      markdown: QUARTERS,
      claim: "Q3 revenue was $120.",
      binding: { rows: [1], columns: [1], values: ["120"] },
    },
    {
      name: "only a column named",
      markdown: QUARTERS,
      claim: "Profit reached 12.",
      binding: { rows: [], columns: [2], values: ["12"] },
    },
    {
      name: "nothing named",
      markdown: QUARTERS,
      claim: "It grew 20% to 120.",
      binding: { rows: [], columns: [], values: ["20", "120"] },
    },
    {
      name: "a year column is context",
      markdown: YEARS,
      claim: "In 2019, Other was 44.1.",
      binding: { rows: [0], columns: [1], values: ["44.1"] },
    },
    {
      name: "numbers inside a date label are context",
      markdown: YEARS,
      claim: "Other at September 30, 2019 was 3.",
      binding: { rows: [0], columns: [3], values: ["3"] },
    },
    {
      name: "all numbers in labels: the last whole-number label is the value and names nothing",
      markdown: RANKS,
      claim: "The nation ranked 3 was Chile.",
      binding: { rows: [], columns: [1], values: ["3"] },
    },
    {
      name: "all numbers in labels: a year alone names nothing",
      markdown: YEARS,
      claim: "Sales peaked in 2019.",
      binding: { rows: [], columns: [], values: ["2019"] },
    },
    {
      name: "all numbers in labels: the last of two years is the value",
      markdown: YEARS,
      claim: "In 2019, Other was 2018.",
      binding: { rows: [0], columns: [1], values: ["2018"] },
    },
    {
      name: "all numbers in labels, none a whole label: no value",
      markdown: YEARS,
      claim: "Other at September 30, 2019 rose.",
      binding: { rows: [0], columns: [3], values: [] },
    },
    {
      name: "Total with a column and no row elsewhere names a row",
      markdown: TOTALS,
      claim: "Total for A was 3.",
      binding: { rows: [1], columns: [1], values: ["3"] },
    },
    {
      name: "Total with a row and no column elsewhere names a column",
      markdown: TOTALS,
      claim: "The Total of X was 2.",
      binding: { rows: [0], columns: [2], values: ["2"] },
    },
    {
      name: "Total alone names both",
      markdown: TOTALS,
      claim: "The Total was 4.",
      binding: { rows: [1], columns: [2], values: ["4"] },
    },
    {
      name: "Total with both a row and a column elsewhere names both",
      markdown: TOTALS,
      claim: "Total: X in A was 1.",
      binding: { rows: [1, 0], columns: [2, 1], values: ["1"] },
    },
    {
      name: "no numbers",
      markdown: QUARTERS,
      claim: "Q3 revenue rose.",
      binding: { rows: [1], columns: [1], values: [] },
    },
  ])("$name", ({ markdown, claim, binding }) => {
    const { rows, columns, values } = bind(markdown, claim);
    expect({ rows, columns, values }).toEqual(binding);
  });
});

describe("bindClaimToTable: each value belongs to its own row", () => {
  it.each([
    { name: "one row named: every value is its", claim: "Q3 revenue 120 and profit 12.", rows: [[1], [1]] },
    {
      name: "two rows: each value the row named before it",
      claim: "Q2 made 100 and Q3 made 120.",
      rows: [[0], [1]],
    },
    {
      name: "a value before any row: the first row named after it",
      claim: "100 for Q2, 120 for Q3.",
      rows: [[0], [0]],
    },
    { name: "no row named: none", claim: "Profit was 12.", rows: [[]] },
  ])("$name", ({ claim, rows }) => {
    expect(bind(QUARTERS, claim).valueRows).toEqual(rows);
  });
});

// Invented tables in the style of people's wording: the serial number and the year are both numbers;
// the draft has a pick and an overall pick.
const ENGINES =
  "| class | builder | serial number | year built |\n|---|---|---|---|\n| b - 2 | alco | 41002 | 1931 |\n| b - 3 | alco | 41017 | 1934 |";
const DRAFT =
  "| round | pick | overall | player |\n|---|---|---|---|\n| 7 | 3 | 171 | cy day |\n| 8 | 4 | 200 | al fox |";

// Whether `claim` keeps its numbers when it quotes the line `quote` of `text`.
const checkQuoting = (text: string, quote: string, claim: string) => {
  const start = text.indexOf(quote);
  return checkRowNumbers(claim, { id: "s", text }, [start, start + quote.length]);
};

describe("checkRowNumbers: reading the claim's subject and compound names", () => {
  it.each([
    // The subject column states the value after the main copula.
    { text: ENGINES, claim: "the serial number of the engine built in 1931 is 41002", grounded: true },
    { text: ENGINES, claim: "the serial number of the engine built in 1931 is 41017", grounded: false },
    { text: ENGINES, claim: "the serial number of the engine built in 1934 is 41002", grounded: false },
    { text: ENGINES, claim: "the serial number of the engine built in 1931 is 1931", grounded: false },
    {
      text: ENGINES,
      claim: "the serial number of the engine whose year built was 1931 is 41002",
      grounded: true,
    },
    // Of two column mentions side by side, the nearer names the number.
    { text: DRAFT, claim: "cy day had an overall pick of 200", grounded: false },
    { text: DRAFT, claim: "cy day had an overall pick of 7", grounded: false },
  ])("$claim", ({ text, claim, grounded }) => {
    // Each claim quotes the first body row of its table.
    const quote = text.split("\n")[2] as string;
    expect(checkQuoting(text, quote, claim)).toBe(grounded);
  });
});
