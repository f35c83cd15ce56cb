import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { runSteps } from "../util.js";
import {
  createJsonShapeScanner,
  JsonLayout,
  parseByItems,
  parseByItemsSteps,
  parseModelJson,
} from "./model-json.js";

/** The layout the scanner records of `text`, pushed in pieces of `pieceChars`. */
function layoutOf(text: string, pieceChars = text.length) {
  const layout = new JsonLayout();
  const scanner = createJsonShapeScanner(layout);
  for (let at = 0; at < text.length; at += pieceChars) scanner.push(text.slice(at, at + pieceChars));
  return { layout, repeated: scanner.repeatedTopLevelKey };
}

const long = (letter: string) => `${letter} `.repeat(40);

describe("createJsonShapeScanner's layout", () => {
  it("records each value string (not keys), escapes marked, and the top-level arrays' elements, across pieces", () => {
    const text = '{"a": "xy", "b": [ "p\\"q" , {"c": ["r"]}], "d": 1}';
    for (const pieceChars of [text.length, 3, 1]) {
      const { layout } = layoutOf(text, pieceChars);
      const strings = [0, 1, 2].map((index) => layout.string(index));
      expect(layout.strings).toBe(3);
      expect(strings.map(({ start, end }) => text.slice(start, end))).toEqual(["xy", 'p\\"q', "r"]);
      expect(strings.map(({ escaped }) => escaped)).toEqual([false, true, false]);
      expect(layout.items.map(({ key, index, start, end }) => [key, index, text.slice(start, end)])).toEqual([
        ["b", 0, '"p\\"q" '],
        ["b", 1, '{"c": ["r"]}'],
      ]);
    }
  });
});

describe("parseByItems", () => {
  it("parses a claims output element by element: no JSON.parse call reads more than one claim", () => {
    const claims = Array.from({ length: 50 }, (_, index) => ({
      claim: long(`c${index}`),
      quote: long(`q${index}`),
      source: "report",
    }));
    const text = JSON.stringify({ claims });
    const longestClaim = Math.max(...claims.map((claim) => JSON.stringify(claim).length));
    const { layout, repeated } = layoutOf(text);
    const parse = vi.spyOn(JSON, "parse");
    try {
      const value = parseByItems(text, layout, repeated);
      const read = parse.mock.calls.map(([parsed]) => String(parsed).length);
      parse.mockRestore();
      expect(value).toEqual(JSON.parse(text));
      // The rest of the text (each claim a placeholder), then each claim.
      expect(read).toHaveLength(51);
      expect(Math.max(...read.slice(1))).toBe(longestClaim);
      expect(read[0]).toBeLessThan(longestClaim);
      // Each claim's `claim` and `quote` (80 characters, no escapes) are views of the text; "report" is short.
      expect(layout.shared).toBe(100);
    } finally {
      parse.mockRestore();
    }
  });

  it("parses many short elements in runs, each run one call, the rest of the text in another", () => {
    const text = JSON.stringify({ claims: Array.from({ length: 10_000 }, () => 1) });
    const { layout, repeated } = layoutOf(text);
    expect(layout.items).toHaveLength(10_000);
    const parse = vi.spyOn(JSON, "parse");
    try {
      const steps = parseByItemsSteps(text, layout, repeated, 1_000);
      let next = steps.next();
      for (; next.done !== true; next = steps.next());
      const read = parse.mock.calls.map(([parsed]) => String(parsed).length);
      parse.mockRestore();
      expect(next.value).toEqual(JSON.parse(text));
      // The rest of the text (a placeholder a run), then each run: 501 elements (`1,` each) span 1,001 characters.
      expect(read).toHaveLength(1 + Math.ceil(10_000 / 501));
      expect(Math.max(...read.slice(1))).toBeLessThanOrEqual(1_000 + 4);
      expect(read[0]).toBeLessThan(200);
    } finally {
      parse.mockRestore();
    }
  });

  it.each([
    ["long elements, one a call", 260, 130],
    ["short elements, in runs", 0, 1_000],
  ])("parses %s in steps of at most stepChars plus one element", (_name, claimChars, count) => {
    const claims = Array.from({ length: count }, (_, index) => ({
      claim: "c".repeat(claimChars),
      quote: `q${index}`,
      source: "s",
    }));
    const text = JSON.stringify({ claims });
    const longest = Math.max(...claims.map((claim) => JSON.stringify(claim).length));
    const { layout, repeated } = layoutOf(text);
    const perStep: number[] = [0];
    const parse = JSON.parse;
    const spy = vi.spyOn(JSON, "parse").mockImplementation((parsed: string) => {
      perStep[perStep.length - 1] = (perStep.at(-1) ?? 0) + parsed.length;
      return parse(parsed);
    });
    try {
      const steps = parseByItemsSteps(text, layout, repeated, 1_000);
      let next = steps.next();
      for (; next.done !== true; next = steps.next()) perStep.push(0);
      spy.mockRestore();
      expect(next.value).toEqual(JSON.parse(text));
      // The first step also parses the rest of the text, a placeholder a run. Before, one step parsed it all.
      // (A run is parsed as an array: its brackets and the comma before its last element count.)
      expect(Math.max(...perStep.slice(1))).toBeLessThanOrEqual(1_000 + longest + 3);
      expect(perStep[0]).toBeLessThanOrEqual(1_000 + longest + 3 + 5 * layout.items.length + 20);
      expect(perStep.length).toBeGreaterThanOrEqual(text.length / (1_000 + longest));
    } finally {
      spy.mockRestore();
    }
  });

  it("refuses what JSON.parse refuses", () => {
    for (const text of ['{"claims": [1, ]}', '{"claims": [1 2]}', '{"claims": [, 1]}', '{"claims": [{]}']) {
      const { layout, repeated } = layoutOf(text);
      expect(() => parseByItems(text, layout, repeated)).toThrow(SyntaxError);
      expect(parseModelJson(text).ok).toBe(false);
    }
  });

  it("gives JSON.parse's value whatever the JSON: repeated, integer-like and `__proto__` keys, escapes", () => {
    const keys = fc.constantFrom("a", "b", "1", "0", "__proto__", "claims");
    const strings = fc.oneof(
      fc.string({ maxLength: 80 }),
      // Long enough that the elements holding them are parsed one by one (256 characters on average).
      fc.constantFrom(long("x").repeat(4), long("y").repeat(4), `\\${long("z").repeat(4)}`, `"${long("w")}`),
    );
    const values = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        strings,
        fc.integer(),
        fc.constant(null),
        fc.record({ list: fc.array(tie("value"), { maxLength: 4 }) }),
        fc.record({ entries: fc.array(fc.tuple(keys, tie("value")), { maxLength: 4 }) }),
      ),
    })).value;
    // Objects written as key/value lists, so keys repeat as a model may repeat them.
    const write = (value: unknown): string => {
      if (typeof value !== "object" || value === null) return JSON.stringify(value);
      if ("list" in value) return `[ ${(value.list as unknown[]).map(write).join(" , ")} ]`;
      const entries = (value as { entries: [string, unknown][] }).entries;
      return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${write(item)}`).join(", ")}}`;
    };
    let sharedAny = false;
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, values), { maxLength: 4 }), (entries) => {
        const text = write({ entries });
        const { layout, repeated } = layoutOf(text, 7);
        const value = parseByItems(text, layout, repeated);
        expect(value).toEqual(JSON.parse(text));
        // In steps of a few characters: short elements in runs of several.
        expect(runSteps(parseByItemsSteps(text, layout, repeated, 40))).toEqual(JSON.parse(text));
        sharedAny ||= layout.shared > 0;
        expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      }),
      { numRuns: 400 },
    );
    expect(sharedAny).toBe(true);
  });
});
