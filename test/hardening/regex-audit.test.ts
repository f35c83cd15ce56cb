import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { check, type Diagnostics, type Parameters } from "recheck";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parseModelJson } from "../../src/service/model-json.js";

// Issue 38, item 3 (issue 11, item 1 before it): no regex of src/ can backtrack super-linearly. Every regex
// literal and every `RegExp(...)` call of every production module of src/ is found with TypeScript's parser
// (so a new one is audited without being listed), and each gets a verdict from recheck, a ReDoS checker:
//   - its automaton checker, a static analysis of the pattern's NFA that proves a pattern linear ("safe")
//     or names its complexity and an attack string ("vulnerable");
//   - for a pattern with a look-around, which the automaton checker cannot read, its fuzz checker: seeded
//     attack strings whose matching cost is counted in VM steps (not time), so the verdict is the same on
//     every machine. Each such pattern is named below, so a new look-around is reviewed, not waved through.
// A pattern must be "safe". No pattern is exempt, whatever text it reads; a `RegExp` built from a non-literal
// pattern fails the audit (nothing could check it). A sticky (`y`) pattern is judged as tried at one position,
// which is how src/ uses them (one read at a known index, not a scan).
// The checks run on recheck's pure-JS backend in a worker thread (the same code on every machine and Node
// version, no native binary or JVM, and the test's event loop stays free). Its attack strings are judged by counted steps, never by time. One time limit remains, as a
// fail-safe: a check that runs longer than CHECK_LIMIT_MS ends "unknown", which fails the audit; it can make a pattern fail on a slow machine, never pass. A pattern
// the checker cannot judge in that time is to be written smaller (docs/reliability-limits.md#bounded-regexes).
process.env.RECHECK_BACKEND = "worker";
const CHECK_LIMIT_MS = 60_000;
const noTimeLimits = {
  timeout: CHECK_LIMIT_MS,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
};
const automaton: Parameters = { checker: "automaton", ...noTimeLimits };
const fuzz: Parameters = { checker: "fuzz", randomSeed: 38, ...noTimeLimits };

/**
 * The files whose patterns need the fuzz checker (a look-around the automaton checker cannot read), how many
 * such patterns each holds, and why the look-around is there. A new one fails the count until reviewed here.
 */
const lookAroundPatterns: Record<string, { count: number; why: string }> = {
  "src/core/text/words.ts": {
    count: 1,
    why: "a comma joins digits only after a digit (`12,5`), read without consuming it (look-behind)",
  },
  "src/models/local/labeled-values.ts": {
    count: 1,
    why: "a separator starts where no space precedes, so a run of spaces is read once, not from each space",
  },
  "src/models/local/terms.ts": {
    count: 1,
    why: "a word of letters stops before a CJK or Thai character (negative look-ahead)",
  },
};

const MODULE_ROOT = "src";
const MIN_TEST_TIMEOUT_MS = 3 * CHECK_LIMIT_MS;

interface Pattern {
  /** Where it is written, `file:line`. */
  at: string;
  file: string;
  source: string;
  flags: string;
}

interface Collected {
  patterns: Pattern[];
  /** `RegExp(...)` calls whose pattern or flags are not literals, `file:line`. */
  dynamic: string[];
}

function stringLiteral(node: ts.Node | undefined): string | undefined {
  return node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    ? node.text
    : undefined;
}

function collect(): Collected {
  const patterns: Pattern[] = [];
  const dynamic: string[] = [];
  for (const name of readdirSync(MODULE_ROOT, { recursive: true }).map(String)) {
    if (!/\.[cm]?[jt]sx?$/.test(name) || /\.test\.[cm]?[jt]sx?$/.test(name)) continue;
    const file = join(MODULE_ROOT, name);
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const at = (node: ts.Node) =>
      `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(source);
        const end = literal.lastIndexOf("/");
        patterns.push({ at: at(node), file, source: literal.slice(1, end), flags: literal.slice(end + 1) });
      }
      if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        node.expression.getText(source) === "RegExp"
      ) {
        const [patternArgument, flagsArgument] = node.arguments ?? [];
        const pattern = stringLiteral(patternArgument);
        const flags = flagsArgument === undefined ? "" : stringLiteral(flagsArgument);
        if (pattern === undefined || flags === undefined) dynamic.push(at(node));
        else patterns.push({ at: at(node), file, source: pattern, flags });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { patterns, dynamic };
}

type Verdict = Diagnostics & { judgedBy: "automaton" | "fuzz" };

/** recheck's verdict: the automaton checker's, or the fuzz checker's where the automaton cannot read a look-around. */
async function verdict(source: string, flags: string): Promise<Verdict> {
  const proof = await check(source, flags, automaton);
  const lookAround =
    proof.status === "unknown" &&
    proof.error.kind === "unsupported" &&
    /look-(ahead|behind)/.test(proof.error.message);
  if (!lookAround) return { ...proof, judgedBy: "automaton" };
  return { ...(await check(source, flags, fuzz)), judgedBy: "fuzz" };
}

/** The parts of a verdict a failure message needs: status, complexity, attack string, and the checker used. */
function summary(result: Verdict): Record<string, unknown> {
  return {
    status: result.status,
    judgedBy: result.judgedBy,
    ...(result.status === "vulnerable"
      ? { complexity: result.complexity.summary, attack: result.attack.pattern }
      : {}),
    ...(result.status === "unknown" ? { error: result.error } : {}),
  };
}

describe("every regex of src/ (recheck's verdict)", () => {
  const { patterns, dynamic } = collect();

  it("is found: literals and RegExp calls in every folder, none built from a non-literal pattern", () => {
    expect(patterns.length).toBeGreaterThan(200);
    const folders = new Set(patterns.map((each) => each.file.split("/").slice(0, 3).join("/")));
    for (const folder of [
      "src/core/answers",
      "src/core/binding",
      "src/core/blocks",
      "src/models/openai",
      "src/cli",
    ]) {
      expect([...folders].some((each) => each.startsWith(folder))).toBe(true);
    }
    expect(dynamic).toEqual([]);
  });

  const judgedByFuzz: Record<string, number> = {};
  it.each(patterns.map((each) => [each.at, each] as const))(
    "%s is linear",
    async (_at, { file, source, flags }) => {
      const result = await verdict(source, flags);
      if (result.judgedBy === "fuzz") judgedByFuzz[file] = (judgedByFuzz[file] ?? 0) + 1;
      expect(summary(result)).toEqual({ status: "safe", judgedBy: result.judgedBy });
    },
    MIN_TEST_TIMEOUT_MS,
  );

  // Runs after the verdicts above (a file's tests run in order).
  it("needs the fuzz checker only for the look-around patterns reviewed above", () => {
    const listed = Object.fromEntries(
      Object.entries(lookAroundPatterns).map(([file, { count }]) => [file, count]),
    );
    expect(judgedByFuzz).toEqual(listed);
  });
});

describe("recheck's verdicts have teeth", () => {
  it.each([
    ["nested repetition", "(a+)+b", "", "exponential"],
    ["overlapping alternatives", "(a|a)*b", "", "exponential"],
    ["trailing spaces", "\\s+$", "", "2nd degree polynomial"],
    ["trailing slashes", "\\/+$", "", "2nd degree polynomial"],
    ["a run before a newline", "\\s*\\n\\s*", "g", "2nd degree polynomial"],
    ["trailing spaces after a look-behind", "(?<![ \\t])\\s+$", "", "2nd degree polynomial (fuzz)"],
    [
      "a JWT without its look-behind",
      "eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*",
      "g",
      "2nd degree polynomial",
    ],
  ])(
    "flag %s",
    async (_name, source, flags, complexity) => {
      expect(summary(await verdict(source, flags))).toMatchObject({ status: "vulnerable", complexity });
    },
    MIN_TEST_TIMEOUT_MS,
  );

  it.each([
    ["a run of spaces", "[ \\t]+", "g"],
    ["a sticky read", "\\s+$", "y"],
    ["a look-behind that starts each run once", "(?<![ \\t])[ \\t]+", "g"],
  ])(
    "pass %s",
    async (_name, source, flags) => {
      expect(summary(await verdict(source, flags))).toMatchObject({ status: "safe" });
    },
    MIN_TEST_TIMEOUT_MS,
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
