import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StepCounter } from "../../step-counter.js";
import { forEachWord } from "../../text/index.js";
import { forEachDate } from "../equivalences.js";
import { contentTerm, forEachNumberKey } from "../support.js";
import { readQuestionTerms } from "./clause-terms.js";
import type { QuestionTerms } from "./types.js";

// The oracle: the question read as before it was read in pieces, each message whole in one pass.
function questionTermsInOnePass(messages: readonly string[]): QuestionTerms {
  const words = new Set<string>();
  const terms = new Set<string>();
  const numbers = new Set<string>();
  const dates = new Set<string>();
  for (const message of messages) {
    forEachNumberKey(message, (key) => numbers.add(key));
    forEachDate(message, ({ date }) => dates.add(date));
    forEachWord(message, (word) => {
      words.add(word);
      const term = contentTerm(word);
      if (term !== null) terms.add(term);
    });
  }
  return { words, terms, numbers, dates };
}

const sorted = (read: QuestionTerms): Record<string, string[]> => ({
  words: [...read.words].sort(),
  terms: [...read.terms].sort(),
  numbers: [...read.numbers].sort(),
  dates: [...read.dates].sort(),
});

// Reads the messages in pieces of `pieceChars`, counting the steps between two pauses.
function readInPieces(
  messages: readonly string[],
  pieceChars: number,
): { read: QuestionTerms; largest: number; pauses: number; steps: number } {
  const counter: StepCounter = { steps: 0 };
  const pieces = readQuestionTerms(messages, pieceChars, counter);
  let largest = 0;
  let before = 0;
  let pauses = 0;
  for (let step = pieces.next(); ; step = pieces.next()) {
    largest = Math.max(largest, counter.steps - before);
    before = counter.steps;
    if (step.done === true) return { read: step.value, largest, pauses, steps: counter.steps };
    pauses++;
  }
}

// Words, numbers (thousands groups, decimals, codes), named and numeric dates whose parts a cut could fall
// between, unspaced scripts (Han, Katakana, Hiragana, Thai) with their punctuation, marks that join what comes
// before, and every kind of space.
const PARTS = [
  "Alpha",
  "beta",
  "don't",
  "U.S.",
  "Größe",
  "e\u0301",
  "\u0301",
  "1,250",
  "3.5",
  "17%",
  "I-84",
  "2019",
  "March",
  "Nov.",
  "4,",
  "4th",
  "of",
  "10",
  "March 4, 2019",
  "4 March  2019",
  "Nov. 10 2018",
  "10th of Nov. 2018",
  "2019-03-04",
  "04/03/2019",
  "14.10.2025",
  "東京都",
  "従業員数",
  "カタカナー",
  "です",
  "ภาษาไทย",
  "。",
  "、",
  "，",
  "👍\u200d",
  " ",
  " ",
  " ",
  "  ",
  "\t",
  "\u00a0",
  "\n",
  "\r\n",
  ",",
  ".",
  "-",
  "/",
];

describe("readQuestionTerms", () => {
  it("reads the terms of reading each message whole, in pieces cut anywhere (inside words, numbers, dates)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...PARTS), { maxLength: 80 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 40 }),
        (messages, pieceChars) => {
          const texts = messages.map((parts) => parts.join(""));
          expect(sorted(readInPieces(texts, pieceChars).read)).toEqual(sorted(questionTermsInOnePass(texts)));
        },
      ),
      { seed: 34, numRuns: 1500 },
    );
  });

  it("reads the same terms from text of single characters of every kind, in pieces of 1 to 12", () => {
    const CHARACTERS = [..."aZé109,.-/'’% \t\n\r\u00a0\u0301中文。、ーあก", "\u{20000}"];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 200 }),
        fc.integer({ min: 1, max: 12 }),
        (characters, pieceChars) => {
          const texts = [characters.join("")];
          expect(sorted(readInPieces(texts, pieceChars).read)).toEqual(sorted(questionTermsInOnePass(texts)));
        },
      ),
      { seed: 3434, numRuns: 1500 },
    );
  });

  it("pauses after each piece's worth: 4 MiB of words or of numbers and dates, a slice at a time", () => {
    const pieceChars = 10_000;
    for (const unit of [
      "Alpha beta gamma delta epsilon zeta eta ",
      "1,250 in 2019-03-04 and 17% of 3.5 million ",
    ]) {
      const question = unit.repeat(Math.floor((4 * 1024 * 1024) / unit.length));
      const { largest, pauses, steps } = readInPieces([question], pieceChars);
      // Every character is counted; no piece runs past the next cut (a unit's length) beyond its worth.
      expect(steps).toBe(question.length);
      expect(largest).toBeLessThanOrEqual(pieceChars + unit.length);
      expect(pauses).toBeGreaterThanOrEqual(Math.floor(question.length / (pieceChars + unit.length)));
    }
  });

  it("counts UNSPACED_STEPS_PER_CHAR (16) steps a character of a script without spaces, its pieces as much shorter", () => {
    const pieceChars = 10_000;
    const unit = "東京都の人口は多い。";
    const question = unit.repeat(20_000);
    const { largest, pauses, steps } = readInPieces([question], pieceChars);
    expect(steps).toBe(16 * question.length);
    expect(largest).toBeLessThanOrEqual(pieceChars + 16 * unit.length);
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(steps / (pieceChars + 16 * unit.length)));
  });

  it("pauses across many small messages by the characters read, not per message", () => {
    const messages = Array.from({ length: 1_000 }, () => "Alpha beta. ");
    const { largest, pauses } = readInPieces(messages, 1_200);
    expect(largest).toBeLessThanOrEqual(1_200 + 12);
    expect(pauses).toBe(10);
  });
});
