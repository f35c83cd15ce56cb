import { describe, expect, it } from "vitest";
import { findNumberSpans } from "../numbers/index.js";
import type { StepCounter } from "../step-counter.js";
import { valueColumns } from "./index.js";
import { type Mention, Mentions } from "./mention.js";
import { statedByCopula, subjectMention } from "./subject-column.js";

// Column mentions at the words given (the first occurrence of each), naming the columns given.
const mentionListOf = (text: string, mentions: [string, number][]): Mention[] =>
  mentions.map(([word, column]) => {
    const start = text.indexOf(word);
    return { start, end: start + word.length, table: 0, rows: [], columns: [column] };
  });
const mentionsOf = (text: string, mentions: [string, number][]): Mentions =>
  Mentions.of(mentionListOf(text, mentions));

describe("subjectMention: the column a claim opens with as its subject", () => {
  it.each([
    {
      text: "the serial number of the engine built in 1931 is 41002",
      mentions: [["serial number", 4]],
      subject: 0,
    },
    {
      text: "the week 6 attendance for the game was 500",
      mentions: [
        ["week", 0],
        ["attendance", 3],
      ],
      subject: 1,
    },
    { text: "the 2nd leg tally for the pairing was 1 - 2", mentions: [["2nd leg", 4]], subject: 0 },
    { text: "the lowest total for a side was 9", mentions: [["total", 1]], subject: 0 },
    // Not a subject: no opening `the`, a head too far in, no modifier after it, the row-label column.
    { text: "serial number of the engine is 41002", mentions: [["serial number", 4]], subject: -1 },
    { text: "the side that won most often had the total of 9", mentions: [["total", 1]], subject: -1 },
    { text: "the attendance was 500", mentions: [["attendance", 3]], subject: -1 },
    { text: "the week of the game was 6", mentions: [["week", 0]], subject: -1 },
  ] as { text: string; mentions: [string, number][]; subject: number }[])(
    "$text",
    ({ text, mentions, subject }) => {
      expect(subjectMention(text, mentionsOf(text, mentions))).toBe(subject);
    },
  );
});

describe("statedByCopula: a number the claim's main copula states", () => {
  const stated = (text: string, number: string, mentions: [string, number][]) => {
    const list = mentionListOf(text, mentions);
    const start = text.lastIndexOf(number);
    return statedByCopula(
      text,
      start,
      start + number.length,
      (end: number) => list.some((each) => each.end === end),
      new Set(list.map((each) => each.start)),
    );
  };
  it.each([
    { text: "the total of the side is 9", number: "9", mentions: [], stated: true },
    { text: "the gdp of the land was $ 36,728", number: "36,728", mentions: [], stated: true },
    { text: "the total when the score was 12", number: "12", mentions: [["score", 2]], stated: false },
    { text: "the total for a curler who has 46", number: "46", mentions: [], stated: false },
    { text: "the total when there were 1,500", number: "1,500", mentions: [], stated: false },
    { text: "the total of a side that has 44 pf", number: "44", mentions: [["pf", 2]], stated: false },
    { text: "the total of the side reached 9", number: "9", mentions: [], stated: false },
    { text: "the total of the side this 9", number: "9", mentions: [], stated: false },
  ] as { text: string; number: string; mentions: [string, number][]; stated: boolean }[])(
    "$text",
    ({ text, number, mentions, stated: expected }) => {
      expect(stated(text, number, mentions)).toBe(expected);
    },
  );
});

describe("valueColumns: the subject column states the value after the main copula", () => {
  it.each([
    {
      text: "the serial number of the engine built in 1931 is 41002",
      mentions: [["serial number", 4]],
      columns: [[], [4]],
    },
    {
      text: "the attendance of the game when there were 3 goals was 5000",
      mentions: [["attendance", 5]],
      columns: [[], [5]],
    },
    {
      text: "the lowest total for a curler who has 46 pf was 9",
      mentions: [
        ["total", 1],
        ["pf", 2],
      ],
      columns: [[2], [1]],
    },
    {
      text: "the total for the side whose score was 12 is 30",
      mentions: [
        ["total", 1],
        ["score", 2],
      ],
      columns: [[2], [1]],
    },
    // Without the subject reading (no opening `the`), nearness pairs 1931 with the serial number.
    {
      text: "serial number of the engine built in 1931 is 41002",
      mentions: [["serial number", 4]],
      columns: [[4], []],
    },
  ] as { text: string; mentions: [string, number][]; columns: number[][] }[])(
    "$text",
    ({ text, mentions, columns }) => {
      expect(valueColumns(text, findNumberSpans(text), mentionsOf(text, mentions))).toEqual(columns);
    },
  );

  it.each([
    { text: "cy day had an overall pick of 163", columns: [[1]] },
    { text: "cy day was pick 7 , overall 163", columns: [[1], [2]] },
  ])("the nearest of adjacent column mentions takes the number: $text", ({ text, columns }) => {
    const mentions = Mentions.of(
      mentionListOf(text, [
        ["overall", 2],
        ["pick", 1],
      ]).sort((a, b) => a.start - b.start),
    );
    expect(valueColumns(text, findNumberSpans(text), mentions)).toEqual(columns);
  });

  it("stays linear when the claim repeats copulas and numbers after its subject", () => {
    for (const scale of [1, 4, 16, 64]) {
      const claim = `the total of the side ${"that has 4 and who was 5 , ".repeat(50 * scale)}is 9`;
      const counter: StepCounter = { steps: 0 };
      const columns = valueColumns(claim, findNumberSpans(claim), mentionsOf(claim, [["total", 1]]), counter);
      expect(columns.at(-1)).toEqual([1]);
      expect(counter.steps).toBeLessThanOrEqual(16 * claim.length);
    }
  });
});
