import { describe, expect, it } from "vitest";
import { parseJsonBody } from "./parse-json-body.js";
import { type CaseRange, evalBodyLimits, scanJsonBody } from "./scan-json-body.js";

const bytesOf = (text: string) => Buffer.from(text, "utf8");

function rangesOf(text: string): CaseRange[] {
  const ranges: CaseRange[] = [];
  expect(scanJsonBody(bytesOf(text), evalBodyLimits, ranges)).toBeUndefined();
  return ranges;
}

const bodies = [
  '{"model":"m","cases":[{"messages":[],"sources":[{"id":"a","text":"x } ] \\" {"}]},{"id":2}],"details":true}',
  // Scalars among the cases stay in the skeleton; nested `cases` keys are a case's own data.
  '{"cases":[1, {"cases":[{"a":1}]}, "s", null, {"b":[{}, []]}], "model":"m"}',
  // An escaped key is the same `cases` to JSON.parse.
  '{"c\\u0061ses":[ {"a":1} ,\n\t{"b":2}], "x":{"cases":[{"c":3}]}}',
  '{"cases":[]}',
  // Characters of several bytes, in cases and around them: the ranges are byte offsets.
  '{"m":"é 😀","cases":[{"q":"café 中"},{"r":"😀"}],"z":"中"}',
];

describe("parseJsonBody", () => {
  it.each(bodies)("gives JSON.parse's value, keys in the same order: %s", async (text) => {
    const parsed = await parseJsonBody(bytesOf(text), rangesOf(text), 1);
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
    const parsed = (await parseJsonBody(bytesOf(text), ranges, 80, turn)) as { cases: unknown[] };
    expect(parsed).toEqual(JSON.parse(text));
    expect(order).toEqual(["turn", "turn"]);
  });

  it("never decodes the whole body: the skeleton and each case are decoded from their own bytes", async () => {
    const text = JSON.stringify({
      model: "m",
      cases: Array.from({ length: 8 }, (_, id) => ({ id, text: "é".repeat(100) })),
    });
    const bytes = bytesOf(text);
    const decoded: number[] = [];
    const decode = bytes.toString.bind(bytes);
    bytes.toString = ((encoding?: BufferEncoding, start = 0, end = bytes.length) => {
      decoded.push(Math.min(end, bytes.length) - start);
      return decode(encoding, start, end);
    }) as typeof bytes.toString;
    expect(await parseJsonBody(bytes, rangesOf(text), 1)).toEqual(JSON.parse(text));
    // Each case is about 220 bytes; the skeleton is decoded in the 9 parts around them.
    expect(decoded.length).toBe(8 + 9);
    expect(Math.max(...decoded)).toBeLessThan(250);
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
    scanJsonBody(bytesOf(text), evalBodyLimits, ranges);
    await expect(parseJsonBody(bytesOf(text), ranges, 1)).rejects.toThrow(SyntaxError);
  });

  it("lists no ranges when the body gives `cases` twice (JSON.parse keeps the last)", async () => {
    const text = '{"cases":[{"a":1}],"cases":[{"b":2},{"c":3}]}';
    expect(rangesOf(text)).toEqual([]);
    expect(await parseJsonBody(bytesOf(text), [], 1)).toEqual({ cases: [{ b: 2 }, { c: 3 }] });
  });
});
