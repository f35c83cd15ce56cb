import { describe, expect, it } from "vitest";
import { findNumberSpans, findNumbers } from "../numbers/index.js";
import type { StepCounter } from "../step-counter.js";
import {
  boundOf,
  buildHeaderStems,
  dateNumbers,
  findHeaderStems,
  headerStem,
  numberUnits,
  valueColumns,
} from "./index.js";
import { type Mention, Mentions } from "./mention.js";

const HEADERS = buildHeaderStems([
  { header: ["player", "weight", "points", "gp", "high points", "attendance"] },
]);

// The header texts a claim names, by stems.
const named = (claim: string) =>
  findHeaderStems(claim, HEADERS)
    .toArray()
    .map((mention) => claim.slice(mention.start, mention.end));

describe("headerStem: a small deterministic stemmer and abbreviation table", () => {
  it.each([
    ["weighed", "weigh"],
    ["weight", "weigh"],
    ["scored", "scor"],
    ["score", "scor"],
    ["attendance", "attend"],
    ["attended", "attend"],
    ["points", "point"],
    ["pts", "point"],
    ["highest", "high"],
    ["no.", "number"],
    ["won", "win"],
    ["class", "class"],
  ])("%s → %s", (word, stem) => {
    expect(headerStem(word)).toBe(stem);
  });
});

describe("findHeaderStems: headers named by inflection or abbreviation", () => {
  it.each([
    { claim: "ann lee weighed 170", names: ["weighed"] },
    { claim: "ayr had 34 pts", names: ["pts"] },
    { claim: "20 games played", names: ["games played"] },
    { claim: "the highest points were 26", names: ["highest points"] },
    { claim: "41256 attended the game", names: ["attended"] },
    { claim: "a claim naming no header", names: [] },
  ])("$claim", ({ claim, names }) => {
    expect(named(claim)).toEqual(names);
  });

  // Without a digit in any header, words starting with one are read without their text: they still stop
  // a run of words and still count as words.
  const DIGIT_HEADERS = buildHeaderStems([{ header: ["week 5", "high points", "points"] }]);
  it.each([
    { claim: "high 5 pts in week 5", headers: HEADERS, names: ["pts"] },
    { claim: "5's pts", headers: HEADERS, names: ["pts"] },
    { claim: "weeks 5 and highest points", headers: DIGIT_HEADERS, names: ["weeks 5", "highest points"] },
    { claim: "scored 12 pts 3 times", headers: DIGIT_HEADERS, names: ["pts"] },
  ])("$claim (digits in headers: $headers.digits)", ({ claim, headers, names }) => {
    expect(headers.digits).toBe(headers === DIGIT_HEADERS);
    expect(
      findHeaderStems(claim, headers)
        .toArray()
        .map((mention) => claim.slice(mention.start, mention.end)),
    ).toEqual(names);
  });
});

describe("numberUnits: numbers joined into one unit", () => {
  it.each([
    { text: "w 12 - 0 at home", units: [0, 0] },
    { text: "in 5:06.72", units: [0, 0] },
    { text: "18.17 ( 125 ) points", units: [0, 0] },
    { text: "70 + 71 = 141", units: [0, 0, 0] },
    { text: "12 and 0", units: [0, 1] },
    { text: "set 6 - 2 , 6 - 0 was the score", units: [0, 0, 0, 0] },
    { text: "on may 12 , 1993 was a win", units: [0, 0] },
  ])("$text", ({ text, units }) => {
    expect(numberUnits(text, findNumbers(text))).toEqual(units);
  });
});

describe("dateNumbers: a date set as the claim's circumstance", () => {
  const dates = (text: string) => {
    const numbers = findNumbers(text);
    return dateNumbers(text, numbers, numberUnits(text, numbers));
  };
  it.each([
    { text: "the match on september 12 , 1971 drew 24318", inDate: [true, true, false] },
    { text: "the september 21 , 1975 game", inDate: [true, true] },
    { text: "played on the 9th of may", inDate: [true] },
    { text: "held on 12/04/1969", inDate: [true, true, true] },
    { text: "the premiere was 17 june 2007", inDate: [false, false] },
    { text: "date: 17 june 2007", inDate: [false, false] },
    { text: "won 12 - 4 in 1999", inDate: [false, false, false] },
    { text: "polled on may 2 - 7 , 2007", inDate: [true, true, true] },
    { text: "on may 2 won 12 - 0", inDate: [true, false, false] },
  ])("$text", ({ text, inDate }) => {
    expect(dates(text)).toEqual(inDate);
  });
});

describe("valueColumns: the one named column each number belongs to", () => {
  // Column mentions at the words given, naming the columns given.
  const columnsOf = (text: string, mentions: [string, number][]) => {
    const list: Mention[] = mentions.map(([word, column]) => {
      const start = text.indexOf(word);
      return { start, end: start + word.length, table: 0, rows: [], columns: [column] };
    });
    return valueColumns(text, findNumberSpans(text), Mentions.of(list));
  };
  it.each([
    {
      text: "revenue was 120 and profit 12",
      mentions: [
        ["revenue", 1],
        ["profit", 2],
      ],
      columns: [[1], [2]],
    },
    { text: "170 is the weight", mentions: [["weight", 1]], columns: [[1]] },
    // Four characters with a decimal point are no year: a column named after them may take them.
    {
      text: "a rating of 1.8 and 2.73 viewers",
      mentions: [
        ["rating", 3],
        ["viewers", 2],
      ],
      columns: [[3], [2]],
    },
    {
      text: "the result was w 12 - 0 with 41256 attending",
      mentions: [["attending", 3]],
      columns: [[], [], [3]],
    },
    { text: "week 5 drew 41256", mentions: [["week", 0]], columns: [[0], []] },
    { text: "11 games in december", mentions: [["games", 0]], columns: [[]] },
    { text: "attendance on october 17 was 41256", mentions: [["attendance", 3]], columns: [[], [3]] },
    { text: "no column named: 12", mentions: [], columns: [[]] },
    // A mention between two units belongs to the nearer one.
    { text: "a skip with 44 pf was 9", mentions: [["pf", 1]], columns: [[1], []] },
    { text: "pf was 44 , 9 ends", mentions: [["pf", 1]], columns: [[1], [1]] },
    { text: "revenue 120 profit 12", mentions: [["profit", 2]], columns: [[2], [2]] },
    {
      text: "with 16 people , it has an area of 27",
      mentions: [["area", 2]],
      columns: [[], [2]],
    },
    // Differences and counts are no cell's value.
    { text: "won 2 more silver medals than ruritania", mentions: [["silver", 2]], columns: [[]] },
    { text: "got top 3 times", mentions: [["top", 4]], columns: [[]] },
    { text: "silver 2 , more than ruritania", mentions: [["silver", 2]], columns: [[2]] },
    // A date or a year takes no column after it; a stated date is one unit.
    { text: "december 10 's high points", mentions: [["high points", 4]], columns: [[]] },
    { text: "the 2007 cup result is 1 - 2", mentions: [["result", 3]], columns: [[], [3], [3]] },
    { text: "ordered was sold 11 june 1930", mentions: [["ordered", 4]], columns: [[4], [4]] },
    // A month naming a column is the date's beside its day: no other number takes it.
    { text: "10 october has 3 - 1 as the record", mentions: [["october", 1]], columns: [[], [], []] },
    { text: "october 10 , then 3 - 1", mentions: [["october", 1]], columns: [[1], [], []] },
  ] as { text: string; mentions: [string, number][]; columns: number[][] }[])(
    "$text",
    ({ text, mentions, columns }) => {
      expect(columnsOf(text, mentions)).toEqual(columns);
    },
  );
});

describe("boundOf: the comparison a number states", () => {
  it.each([
    { text: "more than 8 against", bound: ">" },
    { text: "fewer than 8 draws", bound: "<" },
    { text: "at least 8 points", bound: ">=" },
    { text: "at most 8 points", bound: "<=" },
    { text: "over 8 genes", bound: ">" },
    { text: "below 8 metres", bound: "<" },
    { text: "rather than 8", bound: null },
    { text: "the most 8", bound: null },
    { text: "8 points", bound: null },
  ])("$text", ({ text, bound }) => {
    expect(boundOf(text, text.indexOf("8"))).toBe(bound);
  });
});

describe("wording's work is linear in the claim (counted, not timed)", () => {
  const steps = (scale: number) => {
    const claim = "ann lee weighed 170 and scored 12 - 0 points on september 12 , 1971 ".repeat(100 * scale);
    const counter: StepCounter = { steps: 0 };
    const mentions = findHeaderStems(claim, HEADERS, counter);
    valueColumns(claim, findNumberSpans(claim), mentions, counter);
    return { steps: counter.steps, size: claim.length };
  };
  it("stays within 16 steps per claim character as the claim doubles from 1× to 32×", () => {
    for (const scale of [1, 2, 4, 8, 16, 32]) {
      const { steps: counted, size } = steps(scale);
      expect(counted).toBeLessThanOrEqual(16 * size);
    }
  });
  it("stays linear when every number states a difference or a count beside a mention", () => {
    for (const scale of [1, 4, 16, 64]) {
      const claim = "weighed 2 more scored 3 times weighed 4 fewer ".repeat(50 * scale);
      const counter: StepCounter = { steps: 0 };
      const columns = valueColumns(
        claim,
        findNumberSpans(claim),
        findHeaderStems(claim, HEADERS, counter),
        counter,
      );
      expect(columns.every((each) => each.length === 0)).toBe(true);
      expect(counter.steps).toBeLessThanOrEqual(16 * claim.length);
    }
  });
});
