import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { check } from "recheck";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parseModelJson } from "../../src/service/parse-model-json.js";

// Issue 11, item 1: no backtracking regex on unbounded input. Every regex literal in the folders that see
// caller, model or gateway text is found with TypeScript's parser (so a new one is audited without being
// listed) and classified by recheck, a ReDoS checker that analyses the pattern's automaton and reports its
// worst-case matching steps as constant, linear, polynomial or exponential: a step bound, not a timer. The
// core (src/core) is audited by issue 10, which rewrites its matchers.

const roots = ["src/gateway", "src/service", "src/server", "src/wire", "src/errors"];

/** Patterns recheck calls polynomial whose input or repetition is bounded, with the bound. */
const bounded: Record<string, string> = {
  "/;|[ \\t]\\|[ \\t]|\\t|[ \\t]{2,}|,[ \\t]+(?=[^,;:]{1,40}(?::[ \\t]|：))/g":
    "find-labeled-values LINE_VALUE_END: the lookahead reads at most 40 characters: O(40·n)",
  "/\\bmodel\\b.{0,100}\\b(not found|does not exist|is not available)|\\bunknown model|\\binvalid model|\\bno such model/i":
    "map-gateway-error modelMessage: `.{0,100}` reads at most 100 characters after each `model`: O(100·n)",
  "/\\/+$/": "openai-chat-gateway: applied to the configured gateway URL only, never to request text",
  "/[\\r\\n]+$/": "split-blocks: applied to one line, whose only line-end characters are its last one or two",
};

interface Literal {
  file: string;
  literal: string;
  pattern: string;
  flags: string;
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
          found.push({ file, literal, pattern: literal.slice(1, end), flags: literal.slice(end + 1) });
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return found;
}

describe("regexes that see caller, model or gateway text", () => {
  const literals = regexLiterals();

  it("are found (the audit is not vacuous)", () => {
    expect(literals.length).toBeGreaterThan(30);
  });

  it("are each linear (or constant) in recheck's step analysis, or have a documented bound", async () => {
    const results = await Promise.all(
      literals.map(async (each) => {
        const result = await check(each.pattern, each.flags, { timeout: 60_000, randomSeed: 0 });
        return {
          ...each,
          status: result.status,
          complexity: "complexity" in result ? result.complexity.type : undefined,
        };
      }),
    );
    const unsafe = results
      .filter((each) => each.status !== "safe" && bounded[each.literal] === undefined)
      .map((each) => `${each.file}: ${each.literal} is ${each.status} (${each.complexity ?? "?"})`);
    expect(unsafe).toEqual([]);
    // Every documented bound still names a pattern in the code.
    for (const literal of Object.keys(bounded)) {
      expect(results.map((each) => each.literal)).toContain(literal);
    }
  }, 240_000);

  it("the patterns this issue replaced are the ones recheck flags, so the check has teeth", async () => {
    for (const [pattern, flags] of [
      ["```(?:json|JSON)?\\s*\\n?([\\s\\S]*?)```", ""],
      ["\\.+$", ""],
      ["\\beyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*", "g"],
    ] as const) {
      expect((await check(pattern, flags, { timeout: 60_000, randomSeed: 0 })).status).toBe("vulnerable");
    }
  }, 120_000);
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
    });
  });
});
