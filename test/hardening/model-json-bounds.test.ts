import { describe, expect, it } from "vitest";
import { MAX_MODEL_JSON_DEPTH, MAX_MODEL_JSON_VALUES } from "../../src/limits.js";
import { createJsonShapeScanner, parseModelJson } from "../../src/service/model-json.js";

// The shape scan both model-output readers run before parsing: nesting depth, values, repeated top-level keys.

describe("createJsonShapeScanner", () => {
  it("refuses the level past the bound where it opens, whole or in pieces", () => {
    const text = "[".repeat(1_000_000);
    const whole = createJsonShapeScanner();
    expect(whole.push(text)).toBe(`the model's output nests deeper than ${MAX_MODEL_JSON_DEPTH} levels`);
    expect(whole.refusedAt).toBe(MAX_MODEL_JSON_DEPTH);

    const pieces = createJsonShapeScanner();
    expect(pieces.push(text.slice(0, 10))).toBeUndefined();
    expect(pieces.push(text.slice(10, 100))).toContain("nests deeper");
    expect(pieces.refusedAt).toBe(MAX_MODEL_JSON_DEPTH - 10);
  });

  it("counts no bracket inside a string, escapes included, across pieces", () => {
    const scanner = createJsonShapeScanner();
    const inside = `"\\"${"[{".repeat(1_000)}"`;
    for (const piece of [`{"a": ${inside.slice(0, 7)}`, inside.slice(7), "}"])
      expect(scanner.push(piece)).toBeUndefined();
  });

  it("refuses more values than the bound", () => {
    const scanner = createJsonShapeScanner();
    expect(scanner.push(`[${"0,".repeat(MAX_MODEL_JSON_VALUES)}0]`)).toBe(
      `the model's output holds more than ${MAX_MODEL_JSON_VALUES.toLocaleString("en-US")} JSON values`,
    );
  });

  it.each([
    ['{"claims": [], "claims": []}', true],
    ['{"\\u0063laims": [], "claims": []}', true],
    ['{"claims": [{"claims": 1}], "other": {"claims": 2}}', false],
    ['["claims", "claims"]', false],
  ])("notes a repeated top-level key in %s: %s", (text, repeated) => {
    const scanner = createJsonShapeScanner();
    for (const char of text) scanner.push(char);
    expect(scanner.repeatedTopLevelKey).toBe(repeated);
  });
});

describe("parseModelJson's shape bound", () => {
  it("refuses a million nested arrays unparsed", () => {
    expect(parseModelJson(`${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`)).toEqual({
      ok: false,
      error: `the model's output nests deeper than ${MAX_MODEL_JSON_DEPTH} levels`,
    });
  });

  it("says whether the value read is the text's first object", () => {
    expect(parseModelJson('{"claims": []}')).toMatchObject({ ok: true, readsFirstObject: true });
    expect(parseModelJson('{"claims": [], "claims": []}')).toMatchObject({
      ok: true,
      readsFirstObject: false,
    });
    expect(parseModelJson('{"claims": [1]} ```json\n{"claims": []}\n```')).toMatchObject({
      ok: true,
      value: { claims: [] },
      readsFirstObject: false,
    });
  });
});
