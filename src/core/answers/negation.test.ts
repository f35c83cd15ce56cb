import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAnswer } from "./check-answer.js";
import { deniedTerms, statesNegation } from "./negation.js";

// Invented text.
const care = [
  {
    id: "k",
    text: "Never wash a glazed shelf with water after a firing. Brush the shelf clean with a soft brush.",
  },
];
const verdict = (answer: string) =>
  checkAnswer(care, answer, { explain: true }).unsupported.map((entry) => [entry.reason, entry.detail]);

describe("a clause that states what its support denies", () => {
  it("is no_support, naming the denied word", () => {
    expect(verdict("Wash the glazed shelf with water after a firing [k].")).toEqual([
      ["no_support", { words: ["Wash"] }],
    ]);
  });

  it.each([
    ["the clause's own negation", "Do not wash the glazed shelf with water after a firing [k]."],
    ["a negative word in the clause", "The glazed shelf is cleaned without water after a firing [k]."],
    ["a word the support also states plainly", "Brush the glazed shelf clean with a soft brush [k]."],
  ])("keeps a clause with %s", (_, answer) => {
    expect(verdict(answer)).toEqual([]);
  });

  it("reads a denial only on the verb after the negator and its auxiliaries", () => {
    const terms = (text: string) => {
      const ids = new Map<string, number>();
      const denied = deniedTerms(text, [0, text.length], (word) => {
        if (["the", "a", "be", "been"].includes(word)) return -1;
        if (!ids.has(word)) ids.set(word, ids.size);
        return ids.get(word) as number;
      });
      return [...ids].filter(([, id]) => denied.has(id)).map(([word]) => word);
    };
    expect(terms("shelves must never be washed")).toEqual(["washed"]);
    expect(terms("the plan has not been approved")).toEqual(["approved"]);
    expect(terms("the outer membrane and not the inner membrane")).toEqual([]);
    expect(terms("it is not only cheap but quick")).toEqual([]);
    expect(terms("it did not open until 1990")).toEqual(["open"]);
    expect(terms("it did not open; later it did open")).toEqual([]);
  });

  it("tells a negative clause by its words", () => {
    const negative = ["it isn't here", "no water", "never again", "done without help"];
    const plain = ["it is here", "the note says yes"];
    expect(negative.map(statesNegation)).toEqual([true, true, true, true]);
    expect(plain.map(statesNegation)).toEqual([false, false]);
  });
});

describe("denials over generated sentences", () => {
  // Invented words: a subject, a verb (third person and base form) and an object, with filler sentences around.
  const subjects = ["The ferry", "The kiln", "Each clerk", "The Orrin valve"];
  const verbs: [string, string][] = [
    ["stores", "store"],
    ["washes", "wash"],
    ["crosses", "cross"],
    ["carries", "carry"],
  ];
  const objects = ["the spare keys", "the cargo nets", "the outer gate", "the tide tables"];
  const sentence = fc.record({
    subject: fc.constantFrom(...subjects),
    verb: fc.constantFrom(...verbs),
    object: fc.constantFrom(...objects),
    filler: fc.constantFrom("", "Lamps hang by the door. ", "Rain fell all week. "),
  });
  const kept = (source: string, answer: string) =>
    checkAnswer([{ id: "s", text: source }], answer).unsupported.length === 0;
  const RUNS = { seed: 3502, numRuns: 60 };

  it("a claim its source states is kept; denied by the source, it is dropped; denied in both, kept", () => {
    fc.assert(
      fc.property(sentence, ({ subject, verb: [third, base], object, filler }) => {
        const plain = `${filler}${subject} ${third} ${object}.`;
        const denied = `${filler}${subject} never ${third} ${object}.`;
        const doesNot = `${filler}${subject} does not ${base} ${object}.`;
        const claim = `${subject} ${third} ${object} [s].`;
        const negativeClaim = `${subject} does not ${base} ${object} [s].`;
        expect(kept(plain, claim)).toBe(true);
        expect(kept(denied, claim)).toBe(false);
        expect(kept(doesNot, claim)).toBe(false);
        expect(kept(denied, negativeClaim)).toBe(true);
        expect(kept(doesNot, negativeClaim)).toBe(true);
      }),
      RUNS,
    );
  });
});
