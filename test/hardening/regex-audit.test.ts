import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parseModelJson } from "../../src/service/model-json.js";

// Issue 11, item 1: no backtracking regex on unbounded input. Every regex literal in the folders that see
// caller, model or gateway text is found with TypeScript's parser (so a new one is audited without being
// listed) and run over 1 MB adversarial strings (long runs of the characters these patterns repeat, and
// repeated near-misses of their prefixes). A linear pattern reads each in milliseconds; one with O(n²)
// backtracking needs about 5·10^11 steps on 1 MB and never finishes, so the test's timeout cannot be
// reached by a slow machine, only by a quadratic pattern. The core (src/core) is audited by issue 10.

// The local model's text helpers moved to src/core/blocks and src/core/text (issue 9); they see request text too.
const roots = [
  "src/models",
  "src/service",
  "src/server",
  "src/wire",
  "src/errors",
  "src/core/blocks",
  "src/core/text",
];

/** Patterns only ever applied to bounded input, with the bound (they are not run on 1 MB). */
const boundedInput: Record<string, string> = {
  "/\\/+$/": "openai-chat-gateway: applied to the configured gateway URL only, never to request text",
};

const MB = 1_000_000;
/** Adversarial texts: long runs, and repeated near-misses of the prefixes the audited patterns look for. */
const adversarial: [string, string][] = [
  ["spaces", " ".repeat(MB)],
  ["tabs and spaces", " \t".repeat(MB / 2)],
  ["dots", ".".repeat(MB)],
  ["closing quotes after a full stop", `.${")".repeat(MB)}`],
  ["backticks", "`".repeat(MB)],
  ["letters", "a".repeat(MB)],
  ["letters and digits", "a1".repeat(MB / 2)],
  ["CJK", "中".repeat(MB)],
  ["comma spaces", ", ".repeat(MB / 2)],
  ["comma then spaces", `,${" ".repeat(MB)}x`],
  ["unterminated token values", 'token="'.repeat(MB / 7)],
  ["JWT-like runs", "eyJaaaa-".repeat(MB / 8)],
  ["model without end", "model ".repeat(MB / 6)],
  ["Bearer without token", `Bearer${" ".repeat(MB)}`],
  ["separators", " : ".repeat(MB / 3)],
  ["dashes", "-".repeat(MB)],
  ["pipes", "|-".repeat(MB / 2)],
  ["camelCase", "aB".repeat(MB / 2)],
];

interface Literal {
  file: string;
  literal: string;
  regex: RegExp;
}

function regexLiterals(): Literal[] {
  const found: Literal[] = [];
  for (const root of roots) {
    for (const name of readdirSync(root, { recursive: true }).map(String)) {
      if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
      const file = join(root, name);
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
          const literal = node.getText(source);
          const end = literal.lastIndexOf("/");
          const flags = literal.slice(end + 1);
          // Global, so every start position is tried, as `replace` and `matchAll` do.
          const regex = new RegExp(literal.slice(1, end), flags.includes("g") ? flags : `${flags}g`);
          found.push({ file, literal, regex });
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return found;
}

/** Runs `regex` over the whole of `text`; returns the number of matches. */
function matchesIn(regex: RegExp, text: string): number {
  let count = 0;
  regex.lastIndex = 0;
  for (;;) {
    const match = regex.exec(text);
    if (match === null) return count;
    count += 1;
    if (match[0] === "") regex.lastIndex += 1;
  }
}

describe("regexes that see caller, model or gateway text", () => {
  const literals = regexLiterals();
  const audited = literals.filter((each) => boundedInput[each.literal] === undefined);

  it("are found (the audit is not vacuous), and every bounded-input exception still exists", () => {
    expect(audited.length).toBeGreaterThan(30);
    for (const literal of Object.keys(boundedInput)) {
      expect(literals.map((each) => each.literal)).toContain(literal);
    }
  });

  it.each(adversarial)(
    "each reads 1 MB of %s in linear steps",
    (_name, text) => {
      for (const { regex } of audited) expect(matchesIn(regex, text)).toBeGreaterThanOrEqual(0);
    },
    60_000,
  );
});

describe("the fence scan replacing the regex", () => {
  it.each([
    ["``` and 1 MB of spaces", `\`\`\`${" ".repeat(1_000_000)}`],
    ["1 MB of backticks", "`".repeat(1_000_000)],
    ["``` json and 1 MB of newlines", `\`\`\`json${"\n".repeat(1_000_000)}`],
  ])("reads %s in one pass", (_name, text) => {
    // Length bound: the scan is two indexOf calls and one brace scan over the text, O(n).
    expect(parseModelJson(text)).toEqual({ ok: false, error: "the model's output is not valid JSON" });
  });

  it("still reads a fenced block", () => {
    expect(parseModelJson('Here:\n```json\n{"claims": []}\n```\nDone.')).toEqual({
      ok: true,
      value: { claims: [] },
      readsFirstObject: true,
    });
  });
});
