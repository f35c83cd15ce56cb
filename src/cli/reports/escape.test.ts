import fc from "fast-check";
import pc from "picocolors";
import { describe, expect, it } from "vitest";
import { AuthenticationError } from "../../client/index.js";
import { CliInputError } from "../input/index.js";
import { describeCommandError } from "../output/errors.js";
import { cappedList, markdownCode, markdownText, terminalLines, terminalText } from "./escape.js";
import type { BaselineComparison, EvalReport } from "./eval-report.js";
import { formatScore } from "./format.js";
import { renderMarkdownReport } from "./markdown.js";
import { renderEvalSummary } from "./summary.js";

describe("terminalText", () => {
  it.each([
    { name: "a clear-screen CSI", text: "case\u001b[2J", expected: "case\\x1b[2J" },
    {
      name: "an OSC 8 link ended by BEL",
      text: "\u001b]8;;https://evil.example\u0007id\u001b]8;;\u0007",
      expected: "\\x1b]8;;https://evil.example\\x07id\\x1b]8;;\\x07",
    },
    { name: "a C1 CSI and DEL", text: "a\u009b31mb\u007f", expected: "a\\x9b31mb\\x7f" },
    { name: "line breaks and a carriage return", text: "a\nb\rc", expected: "a\\x0ab\\x0dc" },
    { name: "a right-to-left override", text: "txt.\u202egpj", expected: "txt.\\u202egpj" },
    { name: "plain text, accents and emoji", text: "café-1 ✅", expected: "café-1 ✅" },
  ])("$name", ({ text, expected }) => {
    expect(terminalText(text)).toBe(expected);
  });
});

describe("markdownText", () => {
  it.each([
    {
      name: "an image",
      text: "![x](https://evil.example/p.png)",
      expected: "!\\[x\\](https://evil.example/p.png)",
    },
    {
      name: "a link",
      text: "[click](javascript:alert(1))",
      expected: "\\[click\\](javascript:alert(1))",
    },
    {
      name: "HTML",
      text: "<img src=x onerror=alert(1)>",
      expected: "&lt;img src=x onerror=alert(1)&gt;",
    },
    {
      name: "a table break and emphasis",
      text: "a | *b* _c_ ~d~",
      expected: "a \\| \\*b\\* _c_ \\~d\\~",
    },
    { name: "a backslash and backticks", text: "\\`x`", expected: "\\\\\\`x\\`" },
    { name: "an ANSI escape and a line break", text: "a\u001b[31m\nb", expected: "a\\\\x1b\\[31m b" },
    { name: "plain ids", text: "case-1.json", expected: "case-1.json" },
  ])("$name", ({ text, expected }) => {
    expect(markdownText(text)).toBe(expected);
  });

  it("keeps a code span closed and its controls written out", () => {
    expect(markdownCode("a`b\u001b[2J\nc")).toBe("a'b\\x1b[2J c");
  });
});

describe("cappedList", () => {
  it("lists up to the cap, then the count of the rest", () => {
    const ids = Array.from({ length: 25 }, (_, index) => `c${index}`);
    expect(cappedList(ids.slice(0, 3))).toBe("c0, c1, c2");
    expect(cappedList(ids)).toBe(`${ids.slice(0, 20).join(", ")} … and 5 more`);
    expect(cappedList(ids, 2)).toBe("c0, c1 … and 23 more");
  });
});

describe("the error line of a command", () => {
  it("writes out control characters of a file name or case id", () => {
    const error = new CliInputError('set.jsonl: case 2 (id "\u001b[2J"): a case must be an object.');
    expect(describeCommandError(error, false)).toBe(
      'set.jsonl: case 2 (id "\\x1b[2J"): a case must be an object.',
    );
  });

  it("is one line, as the regex it replaced joined it (whitespace around each line break becomes a space)", () => {
    const message = fc.string({ unit: fc.constantFrom("a", " ", "\t", "\n", "\r", "\u00a0") });
    fc.assert(
      fc.property(message, (text) => {
        const old = terminalText(text.replace(/\s*\n\s*/g, " ").trim());
        expect(describeCommandError(new Error(text), false)).toBe(old);
      }),
      { seed: 38 },
    );
  });

  it("reads 1 MB of spaces with no line break once", () => {
    // One split and a trim per line: O(n). `/\s*\n\s*/g` rescanned the run from each of its spaces.
    expect(describeCommandError(new Error(`a${" ".repeat(1_000_000)}b`), false)).toBe(
      `a${" ".repeat(1_000_000)}b`,
    );
  });

  it("replaces the client's no-key hint with the command line's", () => {
    const error = new AuthenticationError({
      type: "invalid_key",
      status: 401,
      message:
        "The API key is missing or not valid. No API key was sent: pass `apiKey` to `new Verified()` or set VERIFIED_API_KEY.",
    });
    expect(describeCommandError(error, false)).toBe(
      "The API key is missing or not valid. Pass --api-key or set VERIFIED_API_KEY (invalid_key).",
    );
  });
});

describe("formatScore", () => {
  it("writes what the regex it replaced wrote, for every score in thousandths", () => {
    for (let thousandths = 0; thousandths <= 1000; thousandths += 1) {
      const value = thousandths / 1000;
      expect(formatScore(value)).toBe(value.toFixed(3).replace(/\.?0+$/, ""));
    }
    expect([formatScore(1), formatScore(0.6667), formatScore(0.05), formatScore(0)]).toEqual([
      "1",
      "0.667",
      "0.05",
      "0",
    ]);
  });
});

// Case ids come from datasets and baselines, i.e. from anyone: on a terminal and in the Markdown report they
// must show as text, never act (ANSI/OSC escapes, images, links), and a long baseline cannot grow the report.

const hostileIds = [
  "\u001b[2J\u001b[31mcleared",
  "\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007",
  "![pixel](https://evil.example/track.png)",
  "[docs](https://evil.example) <b>bold</b> | *x*",
];

function reportWith(removed: string[]): EvalReport {
  const baseline: BaselineComparison = {
    file: "base\u001b[2J.json",
    tolerance: 0.05,
    failOnRegression: false,
    regressed: 1,
    changed: [
      { label: hostileIds[0] ?? "", before: 1, after: 0, change: -1, regressed: true, newlyFailed: [] },
    ],
    added: hostileIds,
    removed,
    unchanged: 0,
  };
  return {
    dataset: "set\u001b]0;title\u0007.jsonl",
    model: "local",
    mode: "strict",
    minCoverage: 0.5,
    passed: false,
    aggregate: { coverageMean: 0.25, unsupportedRate: 0.5, n: 4, errored: 1 },
    usage: { totalTokens: 10, modelCalls: 3 },
    cases: hostileIds.map((label, index) =>
      index === 3
        ? {
            index,
            id: label,
            label,
            error: { type: "gateway_error", code: "gateway_error", message: "bad \u001b[5m" },
            passed: false,
          }
        : {
            index,
            id: label,
            label,
            coverage: 0,
            citations: 0,
            unsupported: 1,
            dropped: [{ claim: "x\u009b2J", quote: "x", source: "s", reason: "quote_not_found" }],
            passed: false,
          },
    ),
    baseline,
  } as EvalReport;
}

/** Any control character but the line feed that ends each line. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the test.
const controls = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe("hostile case ids", () => {
  it("reach the terminal summary with every control character written out", () => {
    const summary = renderEvalSummary(reportWith(["\u001b[2Jgone"]), pc.createColors(false));
    expect(summary).not.toMatch(controls);
    expect(summary).toContain("\\x1b[2J\\x1b[31mcleared");
    expect(summary).toContain("\\x1b]8;;https://evil.example\\x07click");
    expect(summary).toContain("removed: \\x1b[2Jgone");
  });

  it("reach the Markdown report as text: no controls, no image, link or HTML markup", () => {
    const markdown = renderMarkdownReport(reportWith(["![gone](https://evil.example/x.png)"]));
    expect(markdown).not.toMatch(controls);
    expect(markdown).not.toMatch(/!\[/);
    expect(markdown).not.toMatch(/(?<!\\)\]\(/);
    expect(markdown).not.toContain("<b>");
    expect(markdown).toContain("!\\[pixel\\](https://evil.example/track.png)");
    expect(markdown).toContain("Removed: !\\[gone\\](https://evil.example/x.png).");
  });
});

describe("a baseline with many removed cases", () => {
  const removed = Array.from({ length: 20_000 }, (_, index) => `removed-case-${index}`);

  it("is listed up to 20 ids and a count, in the Markdown report and on the terminal", () => {
    const markdown = renderMarkdownReport(reportWith(removed));
    const removedLine = markdown.split("\n").find((line) => line.startsWith("Removed: "));
    expect(removedLine).toBe(`Removed: ${removed.slice(0, 20).join(", ")} … and 19980 more.`);
    expect(markdown.length).toBeLessThan(10_000);
    const summary = renderEvalSummary(reportWith(removed), pc.createColors(false));
    expect(summary).toContain(`  removed: ${removed.slice(0, 20).join(", ")} … and 19980 more`);
    expect(summary.length).toBeLessThan(10_000);
  });
});

describe("terminalLines", () => {
  it("keeps line feeds and tabs and writes out every other control character", () => {
    expect(terminalLines("a\tb\nc\u001b[2J\rd\u0085e\u2066f")).toBe("a\tb\nc\\x1b[2J\\x0dd\\x85e\\u2066f");
  });
});
