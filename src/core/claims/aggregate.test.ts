import { describe, expect, it } from "vitest";
import { aggregateCases } from "./aggregate.js";

describe("aggregateCases", () => {
  it.each([
    { name: "no cases", cases: [], expected: { coverageMean: 0, unsupportedRate: 0, n: 0, errored: 0 } },
    {
      name: "mean over cases, rate over claims",
      cases: [
        { coverage: 1, citations: 1, unsupported: 0 },
        { coverage: 0.25, citations: 1, unsupported: 3 },
      ],
      expected: { coverageMean: 0.625, unsupportedRate: 0.6, n: 2, errored: 0 },
    },
    {
      name: "errored cases are counted and left out of both means",
      cases: [{ coverage: 0.5, citations: 1, unsupported: 1 }, { error: { type: "extraction_failed" } }],
      expected: { coverageMean: 0.5, unsupportedRate: 0.5, n: 2, errored: 1 },
    },
    {
      name: "an error field that is undefined is no error",
      cases: [{ coverage: 1, citations: 2, unsupported: 0, error: undefined }],
      expected: { coverageMean: 1, unsupportedRate: 0, n: 1, errored: 0 },
    },
    {
      name: "correct_rate is over the scored cases that carry expected",
      cases: [
        { coverage: 1, citations: 1, unsupported: 0, correct: true },
        { coverage: 1, citations: 1, unsupported: 0, correct: false },
        { coverage: 1, citations: 1, unsupported: 0, correct: true },
        { coverage: 1, citations: 1, unsupported: 0 },
        { error: "x" },
      ],
      expected: { coverageMean: 1, unsupportedRate: 0, n: 5, errored: 1, correctRate: 2 / 3 },
    },
    {
      name: "every case errored",
      cases: [{ error: "x" }, { error: "y" }],
      expected: { coverageMean: 0, unsupportedRate: 0, n: 2, errored: 2 },
    },
  ])("$name", ({ cases, expected }) => {
    expect(aggregateCases(cases)).toEqual(expected);
  });
});
