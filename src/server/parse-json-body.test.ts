import { describe, expect, it } from "vitest";
import { parseJsonBody } from "./parse-json-body.js";
import { type CaseRange, evalBodyLimits, scanJsonBody } from "./scan-json-body.js";

function rangesOf(text: string): CaseRange[] {
  const ranges: CaseRange[] = [];
  expect(scanJsonBody(text, evalBodyLimits, ranges)).toBeUndefined();
  return ranges;
}

const bodies = [
  '{"model":"m","cases":[{"messages":[],"sources":[{"id":"a","text":"x } ] \\" {"}]},{"id":2}],"details":true}',
  // Scalars among the cases stay in the skeleton; nested `cases` keys are a case's own data.
  '{"cases":[1, {"cases":[{"a":1}]}, "s", null, {"b":[{}, []]}], "model":"m"}',
  // An escaped key is the same `cases` to JSON.parse.
  '{"c\\u0061ses":[ {"a":1} ,\n\t{"b":2}], "x":{"cases":[{"c":3}]}}',
  '{"cases":[]}',
];

describe("parseJsonBody", () => {
  it.each(bodies)("gives JSON.parse's value, keys in the same order: %s", async (text) => {
    const parsed = await parseJsonBody(text, rangesOf(text), 1);
    expect(parsed).toEqual(JSON.parse(text));
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it("parses the cases one by one, with a turn after each piece of at least pieceChars", async () => {
    const text = JSON.stringify({
      model: "m",
      cases: Array.from({ length: 6 }, (_, id) => ({ id, pad: "x".repeat(40) })),
    });
    const ranges = rangesOf(text);
    expect(ranges.map((range) => range.item)).toEqual([0, 1, 2, 3, 4, 5]);
    const order: string[] = [];
    const turn = async () => {
      order.push("turn");
    };
    // Each case is over 40 characters: two per piece of 80.
    const parsed = (await parseJsonBody(text, ranges, 80, turn)) as { cases: unknown[] };
    expect(parsed).toEqual(JSON.parse(text));
    expect(order).toEqual(["turn", "turn"]);
  });

  it.each([
    '{"cases":[1{"a":1}]}',
    '{"cases":[{"a":1}{"b":2}]}',
    '{"cases":[{"a":1},{"b":}]}',
    '{"cases":[{"a":1}],}',
    '{"cases":[-{"a":1}]}',
  ])("throws as JSON.parse does on invalid JSON: %s", async (text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    const ranges: CaseRange[] = [];
    scanJsonBody(text, evalBodyLimits, ranges);
    await expect(parseJsonBody(text, ranges, 1)).rejects.toThrow(SyntaxError);
  });

  it("lists no ranges when the body gives `cases` twice (JSON.parse keeps the last)", async () => {
    const text = '{"cases":[{"a":1}],"cases":[{"b":2},{"c":3}]}';
    expect(rangesOf(text)).toEqual([]);
    expect(await parseJsonBody(text, [], 1)).toEqual({ cases: [{ b: 2 }, { c: 3 }] });
  });
});
