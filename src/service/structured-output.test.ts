import { describe, expect, it } from "vitest";
import type { ModelBackend } from "../models/index.js";
import { generateStructured } from "./structured-output.js";
import { emptyUsage } from "./usage.js";

describe("generateStructured", () => {
  it("parses a reply from a later pass of the event loop than the one it arrived in", async () => {
    const order: string[] = [];
    const gateway: ModelBackend = {
      generate: async () => {
        // Other work queued as the reply arrives (another eval case's piece) runs before the reply is parsed.
        setImmediate(() => order.push("work queued as the reply arrived"));
        return { content: '{"claims": []}', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };
      },
    };
    const reply = await generateStructured(
      { gateway, apiKey: undefined, sourcesBudget: 1_000 },
      { model: "m", messages: [{ role: "user", content: "?" }], task: { kind: "answer", messages: [] } },
      (value) => {
        order.push("reply read");
        return { ok: true, value };
      },
      emptyUsage(),
    );
    expect(reply.value).toEqual({ claims: [] });
    expect(order).toEqual(["work queued as the reply arrived", "reply read"]);
  });
});
