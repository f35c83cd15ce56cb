import { beforeAll, describe, expect, it, vi } from "vitest";
import type { ModelBackend } from "../../models/index.js";
import { emptyUsage } from "../usage.js";
import type { createProseAnswer as CreateProseAnswer } from "./create-prose.js";

// Counts the retry feedbacks written: a feedback is as long as the answer and its dropped sentences again. The
// unit tests share their modules (no isolation), so the module is mocked and imported afresh here.
const feedbacks = { written: 0 };
let createProseAnswer: typeof CreateProseAnswer;
beforeAll(async () => {
  vi.resetModules();
  vi.doMock("./prose-prompts.js", async (original) => {
    const actual = await original<typeof import("./prose-prompts.js")>();
    return {
      ...actual,
      buildProseRetryFeedback: (...args: Parameters<typeof actual.buildProseRetryFeedback>) => {
        feedbacks.written += 1;
        return actual.buildProseRetryFeedback(...args);
      },
    };
  });
  ({ createProseAnswer } = await import("./create-prose.js"));
  vi.doUnmock("./prose-prompts.js");
  vi.resetModules();
});

describe("createProseAnswer", () => {
  it.each([0, 1, 2])("writes retry feedback only for a call that follows (retry %i)", async (retry) => {
    feedbacks.written = 0;
    let calls = 0;
    const gateway = {
      async generate() {
        calls += 1;
        return {
          content: "Alpha beta gamma [s]. Omega psi [s].",
          usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
        };
      },
    } as unknown as ModelBackend;
    const outcome = await createProseAnswer(
      {
        model: "m",
        messages: [{ role: "user", content: "q" }],
        sources: [{ id: "s", text: "Alpha beta gamma." }],
        options: {},
        retry,
      },
      { gateway, apiKey: undefined, sourcesBudget: 1_000_000 },
      emptyUsage(),
    );
    // Every call drops a sentence, so every retry is used; before, the last call's feedback was written too.
    expect(outcome.unsupported).toHaveLength(1);
    expect(calls).toBe(1 + retry);
    expect(feedbacks.written).toBe(retry);
  });
});
