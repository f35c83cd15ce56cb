import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StepCounter } from "../step-counter.js";
import { firstOccurrencesOfIds } from "./first-occurrences.js";

const ids = (values: readonly number[]): Int32Array => Int32Array.from(values);

// The naive answer: for each pattern, the first position where every id agrees.
function naiveFirstOccurrences(text: Int32Array, patterns: readonly Int32Array[]): number[] {
  return patterns.map((pattern) => {
    if (pattern.length === 0) return -1;
    for (let start = 0; start + pattern.length <= text.length; start += 1) {
      if (pattern.every((id, offset) => text[start + offset] === id)) return start;
    }
    return -1;
  });
}

describe("firstOccurrencesOfIds", () => {
  it.each<{ name: string; text: number[]; patterns: number[][]; expected: number[] }>([
    { name: "no patterns", text: [0, 1], patterns: [], expected: [] },
    { name: "an empty pattern is never found", text: [0, 1], patterns: [[]], expected: [-1] },
    {
      name: "each pattern's first start",
      text: [0, 1, 0, 1, 2],
      patterns: [[0, 1], [1, 2], [1]],
      expected: [0, 3, 1],
    },
    {
      name: "equal patterns share their answer",
      text: [2, 0, 1],
      patterns: [
        [0, 1],
        [0, 1],
      ],
      expected: [1, 1],
    },
    {
      name: "a pattern inside another is found at its own first start",
      text: [0, 0, 1, 1],
      patterns: [
        [0, 1, 1],
        [1, 1],
      ],
      expected: [1, 2],
    },
    {
      name: "a suffix pattern found through the dictionary links",
      text: [3, 0, 1, 2],
      patterns: [[0, 1, 2], [1, 2], [2]],
      expected: [1, 2, 3],
    },
    { name: "absent patterns", text: [0, 0, 0], patterns: [[0, 0, 0, 0], [1]], expected: [-1, -1] },
    {
      name: "text ids outside the alphabet match nothing",
      text: [-1, 0, 5, 1, 0, 1],
      patterns: [[0, 1]],
      expected: [4],
    },
  ])("$name", ({ text, patterns, expected }) => {
    expect([...firstOccurrencesOfIds(ids(text), patterns.map(ids), 4)]).toEqual(expected);
  });

  it("agrees with a naive search on random and periodic texts", () => {
    const symbol = fc.integer({ min: 0, max: 3 });
    const text = fc.oneof(
      fc.array(symbol, { maxLength: 80 }),
      fc
        .tuple(fc.array(symbol, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 30 }))
        .map(([unit, times]) =>
          Array.from({ length: unit.length * times }, (_, at) => unit[at % unit.length] as number),
        ),
    );
    const textAndPatterns = text.chain((values) =>
      fc
        .array(
          fc.oneof(
            fc.array(symbol, { maxLength: 6 }),
            fc
              .tuple(fc.nat(values.length), fc.nat(8), fc.option(symbol))
              .map(([from, length, tail]) => [
                ...values.slice(from, from + length),
                ...(tail === null ? [] : [tail]),
              ]),
          ),
          { maxLength: 12 },
        )
        .map((patterns) => [values, patterns] as const),
    );
    fc.assert(
      fc.property(textAndPatterns, ([values, patterns]) => {
        const arrays = patterns.map(ids);
        expect([...firstOccurrencesOfIds(ids(values), arrays, 4)]).toEqual(
          naiveFirstOccurrences(ids(values), arrays),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("takes O(n + Σm) steps for many distinct near misses, found or not", () => {
    for (const scale of [1, 4, 16, 64]) {
      // `0^n`, then `0^(k) 1` for distinct k: none found; with a 1 appended to the text, all found at its end.
      const zeros = new Array<number>(500 * scale).fill(0);
      const patterns = Array.from({ length: 20 * scale }, (_, k) => ids([...zeros.slice(0, 100 + k), 1]));
      const size = zeros.length + patterns.reduce((sum, pattern) => sum + pattern.length, 0);
      for (const text of [ids(zeros), ids([...zeros, 1])]) {
        const counter: StepCounter = { steps: 0 };
        firstOccurrencesOfIds(text, patterns, 2, counter);
        expect(counter.steps).toBeLessThanOrEqual(4 * size);
      }
    }
  });
});
