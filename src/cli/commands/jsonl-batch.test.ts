import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineSplitter, RecentSources } from "./jsonl-batch.js";

async function readlineLines(chunks: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  const input = Readable.from(chunks.filter((chunk) => chunk !== ""));
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) lines.push(line);
  return lines;
}

function splitterLines(chunks: readonly string[]): string[] {
  const splitter = new LineSplitter();
  return [...chunks.flatMap((chunk) => splitter.push(chunk)), ...splitter.end()];
}

describe("LineSplitter", () => {
  it.each([
    ["\\n", ["a\nb\n"], ["a", "b"]],
    ["\\r\\n split across chunks", ["a\r", "\nb"], ["a", "b"]],
    ["a lone \\r", ["a\rb"], ["a", "b"]],
    ["blank lines kept, so line numbers count them", ["\n\na\n"], ["", "", "a"]],
    ["a trailing \\r", ["a\r"], ["a"]],
  ])("cuts lines at %s", (_name, chunks, lines) => {
    expect(splitterLines(chunks)).toEqual(lines);
  });

  it("cuts any chunked text into the lines readline reads", async () => {
    const chunk = fc.string({ unit: fc.constantFrom("a", "b", " ", "\r", "\n"), maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(fc.array(chunk, { maxLength: 6 }), async (chunks) => {
        expect(splitterLines(chunks)).toEqual(await readlineLines(chunks));
      }),
      { numRuns: 500 },
    );
  });
});

describe("RecentSources", () => {
  it("gives a repeated id and text the same prepared source, and a new id or text a new one", () => {
    const recent = new RecentSources(100);
    const first = recent.prepare([{ id: "a", text: "one" }]).get("a");
    expect(recent.prepare([{ id: "a", text: "one" }]).get("a")).toBe(first);
    expect(recent.prepare([{ id: "b", text: "one" }]).get("b")).not.toBe(first);
    expect(recent.prepare([{ id: "a", text: "two" }]).get("a")).not.toBe(first);
  });

  it("keeps the first of repeated ids, in request order, as prepareSources does", () => {
    const prepared = new RecentSources(100).prepare([
      { id: "b", text: "first" },
      { id: "a", text: "x" },
      { id: "b", text: "second" },
    ]);
    expect([...prepared.values()].map(({ id, text }) => ({ id, text }))).toEqual([
      { id: "b", text: "first" },
      { id: "a", text: "x" },
    ]);
  });

  it("drops the least recently used text once the texts exceed the character budget", () => {
    const recent = new RecentSources(10);
    const old = recent.prepare([{ id: "s", text: "aaaa" }]).get("s");
    const used = recent.prepare([{ id: "s", text: "bbbb" }]).get("s");
    recent.prepare([{ id: "s", text: "aaaa" }]); // now "bbbb" is the least recently used
    recent.prepare([{ id: "s", text: "cccc" }]); // 12 characters: "bbbb" goes
    expect(recent.prepare([{ id: "s", text: "aaaa" }]).get("s")).toBe(old);
    expect(recent.prepare([{ id: "s", text: "bbbb" }]).get("s")).not.toBe(used);
  });

  it("does not keep a text longer than the budget", () => {
    const recent = new RecentSources(3);
    const first = recent.prepare([{ id: "s", text: "long text" }]).get("s");
    expect(recent.prepare([{ id: "s", text: "long text" }]).get("s")).not.toBe(first);
  });
});
