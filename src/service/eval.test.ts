import { describe, expect, it, vi } from "vitest";
import type { GenerateRequest, ModelBackend } from "../models/index.js";
import { evalVerified } from "./eval.js";

// What an eval holds at once (issue 24): at most `concurrency` cases between their gateway call and their
// score, so answers that arrive faster than they are checked do not pile up.

const source = { id: "s", text: "Northwind was founded in 2016 in Lyon." };
const answer = JSON.stringify({
  claims: [{ claim: "Northwind was founded in 2016.", quote: "Northwind was founded in 2016", source: "s" }],
});

describe("evalVerified", () => {
  it.each([1, 3])("starts a case only when one of at most %i before it finished", async (concurrency) => {
    let finished = 0;
    const startedAfter: number[] = [];
    const gateway: ModelBackend = {
      generate: async (_request: GenerateRequest) => {
        startedAfter.push(finished);
        return { content: answer, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };
      },
    };
    const cases = Array.from({ length: 9 }, () => ({
      messages: [{ role: "user" as const, content: "When was Northwind founded?" }],
      sources: [source],
    }));

    const outcome = await evalVerified(
      { model: "m", cases },
      { gateway, apiKey: undefined, sourcesBudget: 100_000 },
      concurrency,
      { onCase: () => (finished += 1) },
    );

    expect(outcome.aggregate.n).toBe(9);
    expect(outcome.aggregate.coverageMean).toBe(1);
    // Call i (0-based) may start once i - concurrency + 1 cases have finished, not before.
    expect(startedAfter).toHaveLength(9);
    for (const [call, done] of startedAfter.entries())
      expect(done).toBeGreaterThanOrEqual(call - concurrency + 1);
  });

  it("keeps a copy of each result `details` keeps (its strings may be views into the model's output)", async () => {
    const gateway: ModelBackend = {
      generate: async () => ({
        content: answer,
        usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
      }),
    };
    const cases = Array.from({ length: 3 }, () => ({
      messages: [{ role: "user" as const, content: "When was Northwind founded?" }],
      sources: [source],
    }));
    const clone = vi.spyOn(globalThis, "structuredClone");
    try {
      const outcome = await evalVerified(
        { model: "m", cases, details: true },
        { gateway, apiKey: undefined, sourcesBudget: 100_000 },
        2,
      );
      const kept = outcome.cases.map((each) => ("result" in each ? each.result : undefined));
      expect(kept.every((result) => result?.citations.length === 1)).toBe(true);
      // Each kept result is what one structuredClone call returned.
      const clones = clone.mock.results.map((each) => each.value);
      expect(clones).toHaveLength(3);
      for (const result of kept) expect(clones).toContain(result);
    } finally {
      clone.mockRestore();
    }
  });
});
