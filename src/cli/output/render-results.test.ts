import pc from "picocolors";
import { describe, expect, it } from "vitest";
import type { CreateResult, ExtractResult } from "../../client/index.js";
import { renderAskResult } from "./ask-result.js";
import { renderExtractResult } from "./extract-result.js";

// A model's answer reaches the terminal of whoever runs `verified ask` or `verified extract`: escape sequences
// in it (clear screen, OSC 8 links, a carriage return that hides a line) must print as text, not act.
const plain = pc.createColors(false);
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2, modelCalls: 1 };
// Every control character but the line feed, and the bidi overrides.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL_BUT_LINE_FEED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;
const hostile = "Revenue\u001b[2J rose\u001b]8;;https://evil.example\u0007 [q3]\rfine";

describe("renderAskResult", () => {
  it("prints model-written text inert and keeps the answer's line breaks", () => {
    const result: CreateResult = {
      id: "vrf_1",
      model: "local",
      text: `${hostile}\nSecond line.`,
      citations: [{ claim: `claim\u009b31m`, quote: "q\u202equote", source: "q3", range: [0, 7] }],
      unsupported: [{ claim: "gone\u0007", reason: "quote_not_found" }],
      coverage: 0.5,
      abstained: false,
      grounded: true,
      usage,
    };
    const printed = renderAskResult({ kind: "answer", result }, ["q3"], plain);
    // Only the layout's own line feeds remain; no ESC, BEL, CR, C1 or bidi character gets through.
    expect(printed).not.toMatch(CONTROL_BUT_LINE_FEED);
    expect(printed).toContain(
      "Revenue\\x1b[2J rose\\x1b]8;;https://evil.example\\x07 [q3]\\x0dfine\nSecond line.",
    );
    expect(printed).toContain("claim\\x9b31m");
    expect(printed).toContain("q\\u202equote");
    expect(printed).toContain("gone\\x07 (quote_not_found)");
  });

  it("colours each marker that names a supplied source, one after another `[` too, in one pass", () => {
    const marked = {
      ...pc.createColors(false),
      cyan: (text: string | number | null | undefined) => `<${text}>`,
    };
    const answer = (text: string): CreateResult => ({
      id: "vrf_2",
      model: "local",
      text,
      citations: [],
      unsupported: [],
      coverage: 0,
      abstained: false,
      grounded: true,
      usage,
    });
    const first = (text: string) =>
      renderAskResult({ kind: "answer", result: answer(text) }, ["q3"], marked).split("\n")[0];
    expect(first("Up 5% [q3], flat [q9] and [[q3] [q3")).toBe("Up 5% <[q3]>, flat [q9] and [<[q3]> [q3");
    // `/\[([^[\]\n]+)\]/g` stops each try at the next `[`: 1 MB of `[` is read once, not once from each.
    const brackets = "[".repeat(1_000_000);
    expect(first(`${brackets}q3]`)).toBe(`${"[".repeat(999_999)}<[q3]>`);
  });

  it("prints a refusal's message inert", () => {
    const printed = renderAskResult(
      { kind: "ungrounded", message: `No claim held\u001b[31m`, unsupported: [] },
      [],
      plain,
    );
    expect(printed).toBe("No claim held\\x1b[31m\n");
  });
});

describe("renderExtractResult", () => {
  it("prints field names, values and source ids inert", () => {
    const result: ExtractResult = {
      id: "vrf_2",
      model: "local",
      fields: {
        "name\u001b[1m": {
          value: "ACME\u001b]0;title\u0007",
          source: "src\u009b",
          range: [0, 4],
          grounded: true,
        },
      },
      coverage: 1,
      usage,
    };
    const printed = renderExtractResult(result, plain);
    expect(printed).not.toMatch(CONTROL_BUT_LINE_FEED);
    expect(printed.split("\n")[0]).toBe('✓ name\\x1b[1m  "ACME\\u001b]0;title\\u0007"  src\\x9b [0, 4)');
  });
});
