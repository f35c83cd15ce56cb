import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PreparedSource } from "../prepared-source.js";
import type { Range } from "../types.js";
import { checkRowNumbers, explainRowNumbers } from "./row-check.js";

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

describe("checkRowNumbers: properties", () => {
  it("keeps the right cell and drops another row's or column's different value", () => {
    const value = fc.integer({ min: 0, max: 1_000_000 });
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { minLength: 3, maxLength: 3 }), { minLength: 2, maxLength: 6 }),
        (cells) => {
          const text = [
            "| Item | Alpha | Beta | Gamma |",
            "|---|---|---|---|",
            ...cells.map(
              (row, index) =>
                `| Row ${String.fromCharCode(65 + index)} | ${row.map((each) => each.toLocaleString("en-US")).join(" | ")} |`,
            ),
          ].join("\n");
          const columns = ["Alpha", "Beta", "Gamma"];
          cells.forEach((row, rowIndex) => {
            const label = `Row ${String.fromCharCode(65 + rowIndex)}`;
            row.forEach((cell, columnIndex) => {
              const claim = (number: number) => `${label} ${columns[columnIndex]} was ${number}.`;
              expect(check(text, claim(cell), `| ${label} |`)).toBe(true);
              const other = cells[(rowIndex + 1) % cells.length]?.[columnIndex] as number;
              if (other !== cell) expect(check(text, claim(other), `| ${label} |`)).toBe(false);
              const beside = row[(columnIndex + 1) % row.length] as number;
              if (beside !== cell) expect(check(text, claim(beside), `| ${label} |`)).toBe(false);
            });
          });
        },
      ),
    );
  });

  it("gives the same verdict on the same input", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("Q3 revenue was 1,250.", "Q3 revenue was 230.", "12 analysts.", "Profit 210"),
        (claim) => {
          const first = checkRowNumbers(claim, source(SPEC), rangeOf(SPEC, "| Q3 |"));
          expect(checkRowNumbers(claim, source(SPEC), rangeOf(SPEC, "| Q3 |"))).toBe(first);
        },
      ),
    );
  });
});

// Invented tables and claims in the style of people's wording (lower case, tokenised numbers).
const PLAYERS =
  "| player | weight | height |\n|---|---|---|\n| ann lee | 170 | 180 |\n| bo ray | 165 | 175 |";
const RACE =
  "| rank | athlete | time |\n|---|---|---|\n| 2 | ann lee | 5:01.30 |\n| 5 | cy day | 5:10.20 |\n| 6 | bo ray | 5:12.72 |";
const GAMES =
  "| week | opponent | result | attendance |\n|---|---|---|---|\n| 3 | lions | w 12 - 0 | 41256 |\n| 4 | bears | l 7 - 10 | 38011 |";
const CLUBS = "| team | pts | gp |\n|---|---|---|\n| ayr | 34 | 20 |\n| elgin | 28 | 20 |";

const SKIPS =
  "| skip | pf | pa | ends |\n|---|---|---|---|\n| ann lee | 44 | 31 | 9 |\n| bo ray | 31 | 40 | 12 |";
const MEDALS =
  "| rank | nation | gold | silver | bronze |\n|---|---|---|---|---|\n| 1 | jap | 4 | 1 | 0 |\n| 3 | kaz | 1 | 3 | 2 |";
const GAMES_BY_DATE =
  "| week | date | opponent | attendance |\n|---|---|---|---|\n| 6 | october 30 , 1955 | redskins | 17402 |\n| 7 | november 6 , 1955 | bears | 30 |";
const RESULTS =
  "| driver | constructor | laps | time / retired |\n|---|---|---|---|\n| cy day | brm | 66 | + 2 laps |\n| al fox | brm | 2 | + 3 laps |";
const ROUNDS = "| tournament | 2007 | 2008 |\n|---|---|---|\n| open | q1 | 2r |\n| cup | 2r | q2 |";
const SHIPS =
  "| designation | commissioned | fate |\n|---|---|---|\n| pe-3 | 11 november 1918 | sold 11 june 1930 |";

describe("checkRowNumbers: binding rules for people's wording", () => {
  it.each([
    {
      rule: "a text column identifies the row; the inflected header constrains the number",
      text: PLAYERS,
      quote: "| ann lee | 170 | 180 |",
      cases: [
        { claim: "ann lee is the player who weighed 170", grounded: true },
        { claim: "ann lee is the player who weighed 180", grounded: false },
        { claim: "bo ray is the player who weighed 170", grounded: false },
      ],
    },
    {
      rule: "a time is a unit, and a numeric row label binds only as a label",
      text: RACE,
      quote: "| 6 | bo ray | 5:12.72 |",
      cases: [
        { claim: "5:12.72 is the time of bo ray", grounded: true },
        { claim: "rank 5 went to cy day in 5:10.20", grounded: true },
        { claim: "rank 5 ran 5:12.72", grounded: false },
        { claim: "5:01.30 is the time of bo ray", grounded: false },
      ],
    },
    {
      rule: "a score is one unit; a verb names its header (attending: attendance)",
      text: GAMES,
      quote: "| 3 | lions | w 12 - 0 | 41256 |",
      cases: [
        { claim: "the week 3 game against the lions ended w 12 - 0 with 41256 attending", grounded: true },
        { claim: "the week 3 game had an attendance of 12", grounded: false },
        { claim: "the week 4 game had 41256 attending", grounded: false },
      ],
    },
    {
      rule: "abbreviated headers are named by their words (pts: points, gp: games played)",
      text: CLUBS,
      quote: "| ayr | 34 | 20 |",
      cases: [
        { claim: "ayr scored 34 points in 20 games played", grounded: true },
        { claim: "ayr had 20 points", grounded: false },
        { claim: "elgin had 34 points", grounded: false },
      ],
    },
    {
      rule: "a column mention between two numbers belongs to the nearer one",
      text: SKIPS,
      quote: "| ann lee | 44 | 31 | 9 |",
      cases: [
        { claim: "the most ends for a skip who has 44 pf was 9", grounded: true },
        { claim: "the most ends for a skip who has 44 pf was 12", grounded: false },
        { claim: "the skip who has 31 pf had 9 ends", grounded: false },
      ],
    },
    {
      rule: "a difference or a count is no value of the column beside it",
      text: MEDALS,
      quote: "| 3 | kaz | 1 | 3 | 2 |",
      cases: [
        { claim: "kaz won 2 more silver medals than jap", grounded: true },
        { claim: "kaz won 1 more silver medals than jap", grounded: true },
        { claim: "kaz won 5 more silver medals than jap", grounded: false },
        { claim: "kaz won gold 1 times", grounded: true },
        { claim: "kaz won 2 silver medals", grounded: false },
      ],
    },
    {
      rule: "a bound is on the row and its column's cell meets it",
      text: SKIPS,
      quote: "| ann lee | 44 | 31 | 9 |",
      cases: [
        { claim: "ann lee had more than 31 pf", grounded: true },
        { claim: "ann lee had at least 44 pf", grounded: true },
        { claim: "ann lee had fewer than 31 pf", grounded: false },
        { claim: "ann lee had over 9 pa", grounded: true },
        { claim: "ann lee had under 9 pa", grounded: false },
        { claim: "ann lee had more than 40 pf", grounded: false },
      ],
    },
    {
      rule: "a bound may compare a named row with the quoted row's cell in the same column",
      text: SKIPS,
      quote: "| ann lee | 44 | 31 | 9 |",
      cases: [
        { claim: "bo ray had more than 9 ends", grounded: true },
        { claim: "bo ray had fewer than 9 ends", grounded: false },
        { claim: "bo ray had more than 10 ends", grounded: false },
        { claim: "bo ray had more than 9 pa", grounded: false },
      ],
    },
    {
      rule: "a number written as a word takes its column like digits",
      text: "| golfer | wins | events |\n|---|---|---|\n| ann lee | 2 | 40 |\n| bo ray | 1 | 35 |",
      quote: "| ann lee | 2 | 40 |",
      cases: [
        { claim: "ann lee won two titles in 40 starts", grounded: true },
        { claim: "ann lee won two titles in 35 starts", grounded: false },
        { claim: "ann lee won 40 titles", grounded: false },
      ],
    },
    {
      rule: "a number word inside a label is part of that name",
      text: "| conference | wins | losses |\n|---|---|---|\n| big ten | 7 | 3 |\n| pac twelve | 3 | 7 |",
      quote: "| big ten | 7 | 3 |",
      cases: [
        { claim: "wins of the big ten were 7", grounded: true },
        { claim: "wins of the big ten were 3", grounded: false },
      ],
    },
    {
      rule: "an ordinal beside the header of the row labels names that row",
      text: RACE,
      quote: "| 6 | bo ray | 5:12.72 |",
      cases: [
        { claim: "the athlete ranked 5th ran 5:10.20", grounded: true },
        { claim: "the athlete ranked 5th ran 5:12.72", grounded: false },
        { claim: "the 5th rank went to cy day in 5:10.20", grounded: true },
        { claim: "the 5th rank went to cy day in 5:01.30", grounded: false },
      ],
    },
    {
      rule: "a range after the header of the row labels names each of its rows",
      text: GAMES,
      quote: "| 3 | lions | w 12 - 0 | 41256 |",
      cases: [
        { claim: "weeks 3 - 4 were both home games", grounded: true },
        { claim: "weeks 3 to 4 were both home games", grounded: true },
        { claim: "weeks 3 - 4 drew 12345", grounded: false },
      ],
    },
    {
      rule: "a row label inside a longer name that a cell of the quoted row holds names that cell",
      text: "| home team | away team | goals |\n|---|---|---|\n| melbourne | geelong | 9 |\n| st kilda | south melbourne | 5 |",
      quote: "| st kilda | south melbourne | 5 |",
      cases: [
        { claim: "south melbourne were the away team , with 5 goals", grounded: true },
        { claim: "south melbourne were the away team , with 9 goals", grounded: false },
        { claim: "melbourne were the home team , with 9 goals", grounded: true },
      ],
    },
    {
      rule: "a one-letter row label names its row only as a label (a is also an article)",
      text: "| grade | points | reps |\n|---|---|---|\n| a | 5 | 9 |\n| d | 2 | 3 |",
      quote: "| d | 2 | 3 |",
      cases: [
        { claim: "a person who does 3 reps gets grade d", grounded: true },
        { claim: "a person who does 5 reps gets grade d", grounded: false },
        { claim: "grade a takes 9 reps", grounded: true },
        { claim: "grade a takes 3 reps", grounded: false },
      ],
    },
    {
      rule: "spaces just inside brackets do not matter in a label",
      text: "| trim | engine |\n|---|---|\n| xe (2009) | 2.4 l |\n| xe (2010) | 3.0 l |",
      quote: "| xe (2010) | 3.0 l |",
      cases: [
        { claim: "the xe ( 2009 ) has a 2.4 l engine", grounded: true },
        { claim: "the xe ( 2009 ) has a 3.0 l engine", grounded: false },
      ],
    },
    {
      rule: "a date or a year names no column after it",
      text: GAMES_BY_DATE,
      quote: "| 6 | october 30 , 1955 | redskins | 17402 |",
      cases: [
        { claim: "the game of october 30 , 1955 against the redskins had 17402 attendance", grounded: true },
        { claim: "the 1955 attendance of the redskins game was 17402", grounded: true },
        { claim: "the redskins game drew 17402 on october 30 , 1955", grounded: true },
        { claim: "october 30 attendance was 17402", grounded: true },
        { claim: "the attendance was october 30", grounded: false },
        { claim: "the redskins game drew 17403 on october 30 , 1955", grounded: false },
      ],
    },
    {
      rule: "a day next to a month name is no numeric row label",
      text: "| week | date | attendance |\n|---|---|---|\n| 15 | december 15 , 1985 | 77425 |",
      quote: "| 15 | december 15 , 1985 | 77425 |",
      cases: [
        { claim: "the attendance was highest on december 15 , 1985 with 77425 people", grounded: true },
        { claim: "the attendance was highest on december 15 , 1984 with 77425 people", grounded: false },
      ],
    },
    {
      rule: "a number stated with the header word its cell shows after it is that cell's",
      text: RESULTS,
      quote: "| cy day | brm | 66 | + 2 laps |",
      cases: [
        { claim: "cy day finished + 2 laps behind", grounded: true },
        { claim: "cy day finished 2 laps", grounded: true },
        { claim: "cy day finished 3 laps", grounded: false },
        { claim: "cy day drove 2 laps", grounded: true },
      ],
    },
    {
      rule: "a code glued to letters must be in its column even where that column holds text",
      text: ROUNDS,
      quote: "| open | q1 | 2r |",
      cases: [
        { claim: "in 2008 the open was 2r", grounded: true },
        { claim: "in 2007 the open was 2r", grounded: false },
      ],
    },
    {
      rule: "a code the bound row's label shows names that row",
      text: "| model | build date | prime mover |\n|---|---|---|\n| fa - 2 | 1951 - 1953 | 12 - 244 |\n| fa - 3 | 1956 | 12 - 251 |",
      quote: "| fa - 2 | 1951 - 1953 | 12 - 244 |",
      cases: [
        { claim: "the prime mover of the fa-2 model is 12-244", grounded: true },
        { claim: "the prime mover of the fa-2 model is 12-251", grounded: false },
        { claim: "the prime mover of the model is 3", grounded: false },
      ],
    },
    {
      rule: "a stated date is one unit: its year takes the date's column",
      text: SHIPS,
      quote: "| pe-3 | 11 november 1918 | sold 11 june 1930 |",
      cases: [
        { claim: "pe-3 was commissioned on 11 november 1918", grounded: true },
        { claim: "the pe-3 commissioned was sold 11 june 1930", grounded: false },
      ],
    },
    {
      rule: "a cell of the quoted row written out in full is that cell's, when its column is named before it",
      text: "| week | monday | tuesday |\n|---|---|---|\n| w1 | 12 red sky | 13 moon |\n| w2 | 14 dusk | 15 rain |",
      quote: "| w1 | 12 red sky | 13 moon |",
      cases: [
        { claim: "if the tuesday episode was 13 moon the monday episode was 12 red sky", grounded: true },
        { claim: "if the tuesday episode was 15 rain the monday episode was 12 red sky", grounded: false },
        { claim: "the episode was 13 moon the monday episode", grounded: false },
      ],
    },
    {
      rule: "a cell of the quoted row written out as the circumstance is no value of a number column",
      text: "| team | against | date |\n|---|---|---|\n| wales | 30 | 12 / 04 / 1969 |\n| france | 12 | 01 / 03 / 1969 |",
      quote: "| wales | 30 | 12 / 04 / 1969 |",
      cases: [
        { claim: "30 is the highest number against on 12/04/1969", grounded: true },
        { claim: "30 is the highest number against on 01/03/1969", grounded: false },
        { claim: "the number against was 12/04/1969", grounded: false },
      ],
    },
    {
      rule: "a cell of the quoted row that opens the claim is no value of a text column named after it",
      text: "| entrant | constructor | engine |\n|---|---|---|\n| sauber | sauber - petronas | petronas 05a |\n| bar | bar - honda | honda ra005e |",
      quote: "| sauber | sauber - petronas | petronas 05a |",
      cases: [
        { claim: "petronas 05a constructor made the car", grounded: true },
        { claim: "petronas 06a constructor made the car", grounded: false },
        { claim: "the constructor was petronas 05a", grounded: false },
      ],
    },
    {
      rule: "a label's ` - ` may be written `-`",
      text: "| model | cores | price |\n|---|---|---|\n| core i5 - 670 | 2 | 284 |\n| core i5 - 680 | 4 | 300 |",
      quote: "| core i5 - 680 | 4 | 300 |",
      cases: [
        { claim: "the core i5-670 has 2 cores", grounded: true },
        { claim: "the core i5-670 has 4 cores", grounded: false },
        { claim: "the core i5-690 has 4 cores", grounded: false },
      ],
    },
    {
      rule: "a header's ` + ` may be written `&`",
      text: "| decks | double suited match | single + double suited match |\n|---|---|---|\n| 2 | 3:1 | 9:1 |\n| 4 | 4:1 | 8:1 |",
      quote: "| 2 | 3:1 | 9:1 |",
      cases: [
        { claim: "the single & double suited match of 9:1 is paid", grounded: true },
        { claim: "the single & double suited match of 3:1 is paid", grounded: false },
      ],
    },
    {
      rule: "a bound with no column compares a named row with the quoted row's cell of that number",
      text: "| name | position | number |\n|---|---|---|\n| ann lee | forward | 22 |\n| bo ray | guard | 23 |",
      quote: "| ann lee | forward | 22 |",
      cases: [
        { claim: "bo ray was a guard and larger than 22", grounded: true },
        { claim: "bo ray was a guard and smaller than 22", grounded: false },
        { claim: "bo ray was a guard and larger than 21", grounded: false },
      ],
    },
    {
      rule: "a header named without its parenthetical also names longer headers that start with its words",
      text: "| country | population | gdp (billion) | gdp per capita (us) |\n|---|---|---|---|\n| uk | 56 | 675 | 36728 |\n| fr | 55 | 600 | 31000 |",
      quote: "| uk | 56 | 675 | 36728 |",
      cases: [
        { claim: "the gdp of the nation with 56 million people is $ 36,728", grounded: true },
        { claim: "the gdp of the nation with 56 million people is 675", grounded: true },
        { claim: "the gdp of the nation with 56 million people is 56", grounded: false },
        { claim: "the gdp of the nation with 56 million people is $ 31,000", grounded: false },
      ],
    },
    {
      rule: "a bound `other than` holds where the cell differs from its number",
      text: "| player | wkts | runs |\n|---|---|---|\n| ann lee | 0 | 12 |\n| bo ray | 2 | 30 |",
      quote: "| ann lee | 0 | 12 |",
      cases: [
        { claim: "bo ray is the only player with a number other than 0 in the wkts column", grounded: true },
        {
          claim: "ann lee is the only player with a number other than 0 in the wkts column",
          grounded: false,
        },
      ],
    },
    {
      rule: "a number before the plural of the row labels' header counts rows and takes no column",
      text: "| game | date | high rebounds |\n|---|---|---|\n| 1 | november 11 | ann lee (10) |\n| 2 | november 12 | bo ray (8) |",
      quote: "| 1 | november 11 | ann lee (10) |",
      cases: [
        { claim: "ann lee had the high rebounds in 11 games", grounded: true },
        { claim: "ann lee had the high rebounds in 13 games", grounded: false },
      ],
    },
    {
      rule: "a number before `total` is a count, unless `total` starts a column's name",
      text: "| round | pick | overall | name |\n|---|---|---|---|\n| 4 | 12 | 95 | reggie brown |\n| 5 | 11 | 122 | von mansfield |",
      quote: "| 4 | 12 | 95 | reggie brown |",
      cases: [
        {
          claim: "the year riggs was selected ninth overall , the team selected 12 total players",
          grounded: true,
        },
        {
          claim: "the year riggs was selected ninth overall , the team selected 13 total players",
          grounded: false,
        },
      ],
    },
    {
      rule: "a number before `total` that starts a column's name is that column's",
      text: "| governorate | list seats | total seats |\n|---|---|---|\n| hewler | 10 | 14 |\n| duhok | 8 | 11 |",
      quote: "| hewler | 10 | 14 |",
      cases: [
        { claim: "hewler has 14 total seats", grounded: true },
        { claim: "hewler has 10 total seats", grounded: false },
      ],
    },
    {
      rule: "the column a number is `of` is its own, before a nearer one after it; `a total of` is a quantity",
      text: "| position | team | points | difference | total |\n|---|---|---|---|---|\n| 6 | santos | 21 | 6 | 30 |\n| 7 | bahia | 19 | 3 | 25 |",
      quote: "| 6 | santos | 21 | 6 | 30 |",
      cases: [
        { claim: "in position 6 , santos has a difference of 6 points", grounded: true },
        { claim: "in position 6 , santos has a difference of 21 points", grounded: false },
        { claim: "santos has a total of 21 points", grounded: true },
        { claim: "santos has a total of 30 points", grounded: false },
      ],
    },
    {
      rule: "a column a number stands `under` is that number's",
      text: "| year | political rights | civil liberties |\n|---|---|---|\n| 1993 | 6 | 5 |\n| 1994 | 5 | 4 |",
      quote: "| 1993 | 6 | 5 |",
      cases: [
        {
          claim:
            "the total of civil liberties when the year was 1993 , with a rank of 6 under political rights is 5.0",
          grounded: true,
        },
        {
          claim:
            "the total of civil liberties when the year was 1993 , with a rank of 6 under political rights is 6.0",
          grounded: false,
        },
      ],
    },
    {
      rule: "a code within a phrase is no value of a plain-number column: a cell of the bound row reads it",
      text: "| high school | enrollment | classification |\n|---|---|---|\n| henry foss | 1298 | 3a |\n| lincoln | 1500 | 4a |",
      quote: "| henry foss | 1298 | 3a |",
      cases: [
        {
          claim:
            "1298 is the lowest enrollment value out of the enrollment values of schools with a 3a clasification",
          grounded: true,
        },
        {
          claim:
            "1298 is the lowest enrollment value out of the enrollment values of schools with a 4a clasification",
          grounded: false,
        },
        { claim: "the enrollment of henry foss was 3a", grounded: false },
      ],
    },
    {
      rule: "a header of `high` and a noun is also named by its noun",
      text: "| game | team | score | high points |\n|---|---|---|---|\n| 70 | indiana | w 94 - 92 | dirk nowitzki (23) |\n| 71 | boston | l 90 - 99 | jason terry (20) |",
      quote: "| 70 | indiana | w 94 - 92 | dirk nowitzki (23) |",
      cases: [
        { claim: "against indiana the leader had 23 points", grounded: true },
        { claim: "against indiana the leader had 94 points", grounded: false },
      ],
    },
    {
      rule: "a noun that is a label of its own names that label, not the `high` header",
      text: "| game | points | high points |\n|---|---|---|\n| 70 | 94 | dirk nowitzki (23) |\n| 71 | 90 | jason terry (20) |",
      quote: "| 70 | 94 | dirk nowitzki (23) |",
      cases: [
        { claim: "the team had 94 points", grounded: true },
        { claim: "the team had 23 points", grounded: false },
      ],
    },
    {
      rule: "a bound beside the header of the row labels compares the row labels",
      text: "| rank | player | earnings |\n|---|---|---|\n| 1 | chi chi rodriguez | 3000000 |\n| 2 | bob charles | 3642545 |",
      quote: "| 2 | bob charles | 3642545 |",
      cases: [
        { claim: "chi chi rodriguez has the lowest earnings that has a rank smaller than 2", grounded: true },
        {
          claim: "chi chi rodriguez has the lowest earnings that has a rank smaller than 5",
          grounded: false,
        },
      ],
    },
  ])("$rule", ({ text, quote, cases }) => {
    for (const { claim, grounded } of cases)
      expect([claim, check(text, claim, quote)]).toEqual([claim, grounded]);
  });
});

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
