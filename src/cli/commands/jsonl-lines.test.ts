import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineSplitter } from "./jsonl-lines.js";

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
