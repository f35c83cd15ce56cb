import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffDelayMs } from "./backoff-delay.js";

describe("backoffDelayMs", () => {
  it.each<{ name: string; attempt: number; random: number; expected: number }>([
    { name: "first retry, no jitter", attempt: 0, random: 0, expected: 100 },
    { name: "first retry, full jitter", attempt: 0, random: 0.999, expected: 200 },
    { name: "second retry doubles", attempt: 1, random: 0, expected: 200 },
    { name: "third retry doubles again", attempt: 2, random: 0.5, expected: 600 },
  ])("$name", ({ attempt, random, expected }) => {
    expect(backoffDelayMs(attempt, 200, () => random)).toBe(expected);
  });

  it("stays within [half, whole] of the exponential ceiling", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const delay = backoffDelayMs(attempt, 200, () => r);
          const ceiling = 200 * 2 ** attempt;
          expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
  });
});
