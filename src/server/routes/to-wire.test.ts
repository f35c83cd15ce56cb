import { describe, expect, it } from "vitest";
import type { EvalResult } from "../../wire/index.js";
import { OFFSET_CHECKPOINT_UNITS } from "../../wire/index.js";
import { entryConverter, resultChunks } from "./to-wire.js";

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
