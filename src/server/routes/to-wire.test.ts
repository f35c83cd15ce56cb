import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STREAM_KEPT_EVENT_CHARS } from "../../limits.js";
import type { EvalResult } from "../../wire/index.js";
import { OFFSET_CHECKPOINT_UNITS } from "../../wire/index.js";
import { entryConverter, keptEventJson, resultChunks, sameJson } from "./to-wire.js";

// An eval's JSON answer is written in chunks, with a turn of the event loop between them (issue 24).

const result: EvalResult = {
  aggregate: { coverage_mean: 0.5, unsupported_rate: 0.25, n: 30, errored: 1, correct_rate: 1 },
  cases: Array.from({ length: 30 }, (_, index) =>
    index === 7
      ? {
          id: "failed",
          error: { type: "extraction_failed", code: "extraction_failed", message: 'no "claims"' },
        }
      : {
          id: `case-${index}`,
          coverage: 1,
          citations: 1,
          unsupported: 0,
          ...(index % 3 === 0 ? { result_omitted: "details_budget" as const } : {}),
          ...(index % 3 === 1
            ? {
                result: {
                  text: `${"Lyon, \u00e9t\u00e9 \u{1F600}\n".repeat(index * 10)} [s].`,
                  citations: [
                    { claim: "Lyon", quote: "Lyon", source: "s", range: [0, 4] as [number, number] },
                  ],
                  unsupported: [],
                  coverage: 1,
                  abstained: false,
                  grounded: true,
                  usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, model_calls: 1 },
                },
              }
            : {}),
        },
  ),
  usage: { total_tokens: 87, model_calls: 30 },
};

async function chunksOf(chunkChars: number, iterator = resultChunks(result, chunkChars)) {
  const chunks: string[] = [];
  // A callback queued before each chunk is asked for: it has run when the chunk arrives if the serializer
  // gave the event loop a turn while making it.
  let turns = 0;
  const turnsBefore: boolean[] = [];
  for (;;) {
    const before = turns;
    setImmediate(() => {
      turns += 1;
    });
    const next = await iterator.next();
    if (next.done) break;
    chunks.push(next.value);
    turnsBefore.push(turns > before);
  }
  return { chunks, turnsBefore };
}

describe("resultChunks of an eval result", () => {
  it("joins to exactly the result's JSON", async () => {
    for (const chunkChars of [1, 500, 1_000_000]) {
      const { chunks } = await chunksOf(chunkChars);
      expect(chunks.join("")).toBe(JSON.stringify(result));
    }
  });

  it("makes chunks of about the size asked, case by case, with a turn of the event loop before each next", async () => {
    const longestCase = Math.max(...result.cases.map((entry) => JSON.stringify(entry).length));
    const { chunks, turnsBefore } = await chunksOf(2_000);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(2_000 + longestCase + 100);
    expect(turnsBefore).toEqual(chunks.map((_, index) => index > 0));
  });

  it("answers small results in one chunk", async () => {
    const { chunks } = await chunksOf(1_000_000);
    expect(chunks).toEqual([JSON.stringify(result)]);
  });
});

describe("resultChunks of a check result", () => {
  const checked = {
    text: "Lyon, \u00e9t\u00e9 \u{1F600} [s].",
    citations: Array.from({ length: 40 }, (_, index) => ({
      claim: `Claim ${index} \u{1F600}`,
      quote: "Lyon",
      source: "s",
      range: [0, 4],
      support: 1,
      answer_range: [index, index + 1],
    })),
    unsupported: Array.from({ length: 25 }, (_, index) => ({
      claim: `Dropped "${index}"`,
      reason: "no_support",
      answer_range: [index, index + 2],
      ...(index % 2 === 0 ? { detail: { words: ["x"] } } : {}),
    })),
    coverage: 40 / 65,
    usage: { model_calls: 0, total_tokens: 0 },
  };

  it("joins to exactly the result's JSON, entry by entry, with a turn of the event loop before each next chunk", async () => {
    for (const chunkChars of [1, 300, 1_000_000]) {
      const { chunks, turnsBefore } = await chunksOf(chunkChars, resultChunks(checked, chunkChars));
      expect(chunks.join("")).toBe(JSON.stringify(checked));
      // One chunk per entry (and the end) at 1 character, a few at 300, one at a million.
      if (chunkChars === 1) expect(chunks).toHaveLength(40 + 25 + 1);
      else if (chunkChars === 300) expect(chunks.length).toBeGreaterThan(5);
      else expect(chunks).toHaveLength(1);
      // A turn of the event loop before every chunk but the first.
      expect(turnsBefore.slice(1).every(Boolean)).toBe(true);
    }
  });
});

// A streamed create sends an event per entry: each entry's source offsets cost a bounded read, not a walk of
// its source up to the range (issue 34: thousands of entries into a large source read it once).
describe("entryConverter", () => {
  const source = { id: "s", text: "é alpha beta. ".repeat(20_000) };
  const end = source.text.length;

  it("converts each entry's range as convertRanges does, in the request's unit", () => {
    const toWire = entryConverter({ unit: "codepoint", sources: [source] });
    const entry = { claim: "c", source: "s", range: [end - 13, end - 1] as [number, number] };
    expect(toWire(entry).range).toEqual([end - 13, end - 1]);
    const bytes = entryConverter({ unit: "utf8", sources: [source] });
    expect(bytes(entry).range).toEqual([
      Buffer.byteLength(source.text.slice(0, end - 13)),
      Buffer.byteLength(source.text.slice(0, end - 1)),
    ]);
    expect(entryConverter({ unit: undefined, sources: [source] })(entry)).toBe(entry);
  });

  it("reads the source once for a stream of entries at its end, then a bounded part per entry", () => {
    const counter = { steps: 0 };
    const toWire = entryConverter({ unit: "utf8", sources: [source] }, counter);
    const entries = 1_000;
    for (let index = 0; index < entries; index++)
      toWire({ claim: "c", source: "s", range: [end - 20 - index, end - 1 - index] as [number, number] });
    // Per entry: two offsets, each at most a checkpoint's span from the last checkpoint before it.
    expect(counter.steps).toBeLessThanOrEqual(end + 2 * entries * OFFSET_CHECKPOINT_UNITS);
  });
});

// A streamed create's `done` lists the entries its `claim` and `unsupported` events sent: an entry equal to an
// event's is written with that event's JSON, not serialised again (`keptEventJson`, `sameJson`).
describe("the events' JSON reused by done", () => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 3 }), tie("value"), { maxKeys: 4 }),
    ),
  })).value;

  it("sameJson holds only for values that serialise alike, and for every deep copy", () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        if (sameJson(a, b)) expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(sameJson(a, structuredClone(a))).toBe(true);
      }),
      { seed: 34, numRuns: 2000 },
    );
  });

  it("sameJson tells apart key order, a class instance and NaN", () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ at: new Date(0) }, { at: new Date(0) })).toBe(false);
    expect(sameJson([Number.NaN], [Number.NaN])).toBe(false);
    expect(sameJson({ a: [1, { b: "x" }] }, { a: [1, { b: "x" }] })).toBe(true);
  });

  it("sameJson takes parts two entries share as the same without reading them", () => {
    // A part read through would be a class instance, so not the same: one object is.
    const shared = { at: new Date(0), around: [1, 2] };
    expect(sameJson({ claim: "A", shared }, { claim: "A", shared })).toBe(true);
    expect(sameJson(shared, shared)).toBe(true);
    expect(
      sameJson({ claim: "A", shared }, { claim: "A", shared: { at: new Date(0), around: [1, 2] } }),
    ).toBe(false);
  });

  it("done writes a kept event's JSON for an equal entry, and serialises one that differs", async () => {
    const sent = keptEventJson();
    const first = { claim: "A", answer_range: [0, 2] };
    const second = { claim: "B", answer_range: [3, 5] };
    // Marked JSON (not what `JSON.stringify` gives) shows which entries were written from the events.
    sent.keep("citations", first, '{"claim":"A","answer_range":[0,2],"kept":1}');
    sent.keep("citations", second, '{"claim":"B","answer_range":[3,5],"kept":1}');
    const done = { text: "A. B.", citations: [{ ...first }, { claim: "B", answer_range: [3, 6] }] };
    let written = "";
    for await (const chunk of resultChunks(done, 1024, sent.known)) written += chunk;
    expect(JSON.parse(written).citations).toEqual([
      { claim: "A", answer_range: [0, 2], kept: 1 },
      { claim: "B", answer_range: [3, 6] },
    ]);
  });

  it("keeps no more than STREAM_KEPT_EVENT_CHARS characters of events", () => {
    const sent = keptEventJson();
    const big = "x".repeat(STREAM_KEPT_EVENT_CHARS / 2);
    for (let index = 0; index < 3; index++) sent.keep("unsupported", { index }, `"${big}"`);
    expect(sent.known("unsupported", 0, { index: 0 })).toBeDefined();
    // The third would pass the bound: not kept.
    expect(sent.known("unsupported", 1, { index: 1 })).toBeUndefined();
    expect(sent.known("unsupported", 2, { index: 2 })).toBeUndefined();
  });
});
