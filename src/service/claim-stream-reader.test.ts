import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CLAIM_READ_SLICE_CHARS } from "../limits.js";
import { createClaimStreamReader, readQueuedSteps } from "./claim-stream-reader.js";

/**
 * Everything the reader hands over for `text` given in `pieces`, as [index, item] pairs; each piece read as it
 * is queued, `slice` characters a read (the reader's default slice when undefined).
 */
function read(pieces: readonly string[], slice?: number): [number, unknown][] {
  const seen: [number, unknown][] = [];
  const reader = createClaimStreamReader((item, index) => seen.push([index, item]));
  for (const piece of pieces) {
    reader.push(piece);
    while (reader.read(slice));
  }
  return seen;
}

/** `text` cut at the given offsets. */
function cut(text: string, offsets: readonly number[]): string[] {
  const points = [...new Set(offsets.map((offset) => offset % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(text.slice(from, point));
    from = point;
  }
  pieces.push(text.slice(from));
  return pieces;
}

const whitespace = fc.constantFrom("", " ", "\n", "\r\n  ", "\t");

/**
 * A valid document `{…, "claims": [e0, e1, …], …}` written out by hand, with the offset just past each
 * element, and how many characters after that the element is known to be complete (a number is complete
 * only once the character after it shows it ended).
 */
const documents = fc
  .record({
    before: fc.dictionary(
      fc.string().filter((key) => key !== "claims"),
      fc.jsonValue(),
      { maxKeys: 2 },
    ),
    after: fc.dictionary(
      fc.string().filter((key) => key !== "claims"),
      fc.jsonValue(),
      { maxKeys: 2 },
    ),
    elements: fc.array(fc.tuple(fc.jsonValue({ maxDepth: 3 }), whitespace, whitespace), { maxLength: 6 }),
    gaps: fc.array(whitespace, { minLength: 6, maxLength: 6 }),
  })
  .map(({ before, after, elements, gaps }) => {
    const [g0, g1, g2, g3, g4, g5] = gaps as [string, string, string, string, string, string];
    const members = (record: Record<string, unknown>) =>
      Object.entries(record).map(([key, value]) => `${JSON.stringify(key)}:${g1}${JSON.stringify(value)},`);
    let text = `${g0}{${g1}${members(before).join(g2)}${g2}"claims"${g3}:${g4}[`;
    const ends: { end: number; lookahead: number }[] = [];
    elements.forEach(([value, space, trailing], index) => {
      text += `${index === 0 ? "" : ","}${space}${JSON.stringify(value)}`;
      ends.push({ end: text.length, lookahead: typeof value === "number" ? 1 : 0 });
      text += trailing;
    });
    text += `]${g5}${Object.keys(after).length === 0 ? "" : `,${members(after).join("").slice(0, -1)}`}}`;
    return { text, values: elements.map(([value]) => value), ends };
  });

describe("createClaimStreamReader", () => {
  it("hands over each claim when its object closes, not before", () => {
    const claim = '{"claim": "a", "quote": "b}", "source": "s"}';
    const text = `{"claims": [${claim}, ${claim}]}`;
    const closeOfFirst = text.indexOf(claim) + claim.length;

    expect(read([text.slice(0, closeOfFirst - 1)])).toEqual([]);
    expect(read([text.slice(0, closeOfFirst)])).toEqual([[0, { claim: "a", quote: "b}", source: "s" }]]);
    expect(read([text])).toHaveLength(2);
  });

  it.each([
    ["a preamble", 'Here you go: {"claims": [{"quote": "q", "source": "s"}]}'],
    ["a json fence", '```json\n{"claims": [{"quote": "q", "source": "s"}]}\n```'],
  ])("skips %s before the object", (_name, text) => {
    expect(read([...text])).toEqual([[0, { quote: "q", source: "s" }]]);
  });

  it.each([
    ["claims nested deeper", '{"x": {"claims": [1]}, "claims": []}', []],
    [
      "a second claims key",
      '{"claims": [1, 2], "claims": [3]}',
      [
        [0, 1],
        [1, 2],
      ],
    ],
    [
      "a syntax error after the first claim",
      '{"claims": [{"a": 1}, {"a": nope}, {"a": 3}]}',
      [[0, { a: 1 }]],
    ],
    ["text after the object", '{"claims": [1]} {"claims": [2]}', [[0, 1]]],
    ["no object at all", "I cannot answer that.", []],
    ["a top-level array", '[{"claims": [1]}]', []],
    ["a top-level array after whitespace, in pieces", ' \n[{"claims": [1]}]', []],
  ])("with %s, hands over only what JSON.parse would agree with", (_name, text, expected) => {
    expect(read([text])).toEqual(expected);
  });

  it("keeps a __proto__ key as an own property, as JSON.parse does", () => {
    const text = '{"claims": [{"__proto__": {"quote": "x"}, "source": "s"}]}';
    const [[, item] = []] = read([text]) as [number, Record<string, unknown>][];

    expect(item).toEqual(JSON.parse(text).claims[0]);
    expect((item as Record<string, unknown> | undefined)?.quote).toBeUndefined();
  });

  it("on every prefix of a valid document, hands over exactly the elements complete in it, equal to JSON.parse's", () => {
    fc.assert(
      fc.property(documents, fc.array(fc.nat(), { maxLength: 8 }), ({ text, values, ends }, offsets) => {
        const parsed = JSON.parse(text) as { claims: unknown[] };
        // The values as JSON carries them: JSON has no -0, so a generated -0 reads back as 0.
        expect(parsed.claims).toEqual(JSON.parse(JSON.stringify(values)));
        for (let length = 0; length <= text.length; length += 1) {
          const prefix = text.slice(0, length);
          const complete = ends.filter(({ end, lookahead }) => end + lookahead <= length).length;
          const expected = parsed.claims.slice(0, complete).map((value, index) => [index, value]);
          expect(read(cut(prefix, offsets))).toEqual(expected);
        }
      }),
      { numRuns: 80 },
    );
  });

  it("reads queued text a slice at a time, the same elements whatever the slice, surrogate pairs kept whole", () => {
    fc.assert(
      fc.property(
        documents,
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 1, max: 40 }),
        ({ text }, offsets, slice) => {
          // Every piece queued before any is read, then read `slice` characters at a time.
          const seen: [number, unknown][] = [];
          const reader = createClaimStreamReader((item, index) => seen.push([index, item]));
          for (const piece of cut(text, offsets)) reader.push(piece);
          let reads = 0;
          while (reader.read(slice)) reads += 1;
          expect(seen).toEqual(read([text]));
          expect(reader.queued).toBe(false);
          // A read takes `slice` characters (two for a pair cut by a slice of one) while it has them.
          expect(reads).toBeLessThanOrEqual(Math.ceil(text.length / slice));
        },
      ),
      { numRuns: 200 },
    );
    const emoji = '{"claims": [{"quote": "😀😀 ✓ 😀", "source": "s"}]}';
    expect(read([emoji], 1)).toEqual([[0, { quote: "😀😀 ✓ 😀", source: "s" }]]);
    expect(read([emoji], 2)).toEqual(read([emoji]));
  });

  it("reads a piece of megabytes in slices of CLAIM_READ_SLICE_CHARS: steps proportional to its length", () => {
    const claim = JSON.stringify({ claim: "c".repeat(1_000), quote: "q".repeat(1_000), source: "s" });
    const text = `{"claims": [${Array.from({ length: 1_000 }, () => claim).join(",")}]}`;
    let items = 0;
    const reader = createClaimStreamReader(() => {
      items += 1;
    });
    reader.push(text);
    const steps = readQueuedSteps(reader);
    let taken = 0;
    while (steps.next().done !== true) taken += 1;
    expect(items).toBe(1_000);
    // One step between two slices: ceil(length / slice) slices.
    expect(taken).toBe(Math.ceil(text.length / CLAIM_READ_SLICE_CHARS) - 1);
  });
});
