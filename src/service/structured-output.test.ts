import { describe, expect, it } from "vitest";
import { OWN_TURN_TEXT_CHARS } from "../limits.js";
import type { ModelBackend } from "../models/index.js";
import { parseModelJson, parseModelJsonSteps } from "./model-json.js";
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

  it("reads a reply of megabytes over several passes of the event loop: its scan a MiB a pass, its parse in one of its own", async () => {
    const claim = { claim: "c".repeat(1_000), quote: "q".repeat(1_000), source: "s" };
    const content = JSON.stringify({ claims: Array.from({ length: 1_300 }, () => claim) });
    // About 2.6 MiB: a first turn, then scanned in three pieces (two more turns) and parsed after a fourth.
    expect(content.length).toBeGreaterThan(2 * OWN_TURN_TEXT_CHARS);
    let passes = 0;
    let counting = true;
    const count = () => {
      passes += 1;
      if (counting) setImmediate(count);
    };
    const gateway: ModelBackend = {
      generate: async () => {
        setImmediate(count);
        return { content, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };
      },
    };
    const reply = await generateStructured(
      { gateway, apiKey: undefined, sourcesBudget: 1_000 },
      { model: "m", messages: [{ role: "user", content: "?" }], task: { kind: "answer", messages: [] } },
      (value) => {
        counting = false;
        return { ok: true, value };
      },
      emptyUsage(),
    );
    expect(reply.value).toEqual(JSON.parse(content));
    expect(passes).toBeGreaterThanOrEqual(4);
  });
});

describe("parseModelJsonSteps", () => {
  it.each([
    // Whole: scanned in pieces of 100 (2 steps between 3 pieces), then parsed from a step of its own.
    [JSON.stringify({ claims: [{ claim: "x".repeat(200), quote: "q", source: "s" }] }), 3],
    // Under 100 characters: one piece, parsed at once.
    ['{"claims": []}', 0],
    // Prose, then a fenced block: the whole text (216 characters) is scanned and fails to parse (3 steps),
    // then the block (193) is read (2).
    [`Here it is:\n\`\`\`json\n{"claims": [{"quote": "${"q".repeat(150)}", "source": "s"}]}\n\`\`\``, 5],
  ])("gives parseModelJson's reading of %j in %i steps", (content, steps) => {
    const reading = parseModelJsonSteps(content, 100);
    let taken = 0;
    let next = reading.next();
    for (; next.done !== true; next = reading.next()) taken += 1;
    expect(next.value).toEqual(parseModelJson(content));
    expect(next.value.ok).toBe(true);
    expect(taken).toBe(steps);
  });

  it.each([
    ["an unclosed fence then spaces", (n: number) => `\`\`\`json${" ".repeat(n)}x`],
    ["a fence, spaces and a closing fence", (n: number) => `\`\`\`${" ".repeat(n)}\`\`\``],
    ["an open brace then spaces", (n: number) => `{${" ".repeat(n)}x`],
  ])("reads %s in steps that grow with the text (a piece of 100 characters a step)", (_name, make) => {
    // The regex it replaced backtracked on these (O(n²)); each step here scans at most one piece.
    const stepsOf = (n: number) => {
      const reading = parseModelJsonSteps(make(n), 100);
      let taken = 0;
      let next = reading.next();
      for (; next.done !== true; next = reading.next()) taken += 1;
      expect(next.value.ok).toBe(false);
      return taken;
    };
    const [small, large] = [stepsOf(10_000), stepsOf(40_000)];
    expect(small).toBeGreaterThanOrEqual(100);
    expect(large).toBeLessThanOrEqual(4 * small + 8);
  });
});
