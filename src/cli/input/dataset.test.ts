import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readDataset } from "./dataset.js";

const messages = [{ role: "user", content: "How long?" }];
const sources = [{ id: "policy", text: "Within 30 days." }];
const good = { messages, sources };

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "read-dataset-")), name);
  writeFileSync(path, text);
  return path;
}
const jsonl = (...cases: unknown[]) => cases.map((entry) => JSON.stringify(entry)).join("\n");

describe("readDataset", () => {
  it.each([
    { name: "{cases} JSON", path: () => file("d.json", JSON.stringify({ cases: [good, good] })) },
    { name: "a bare array", path: () => file("d.json", JSON.stringify([good, good])) },
    {
      name: "JSONL with blank lines and CRLF",
      path: () => file("d.jsonl", `${jsonl(good)}\r\n\r\n${jsonl(good)}\r\n`),
    },
    { name: "JSONL under another extension", path: () => file("d.txt", jsonl(good, good)) },
    {
      name: "a leading byte-order mark",
      path: () => file("d.json", `\uFEFF${JSON.stringify([good, good])}`),
    },
  ])("reads $name", async ({ path }) => {
    expect(await readDataset(path())).toEqual([good, good]);
  });

  it("keeps ids (numbers as strings) and expected answers, and drops keys the service does not take", async () => {
    const path = file(
      "d.jsonl",
      jsonl(
        { id: 7, expected: "30 days", messages: [{ ...messages[0], name: "x" }], sources },
        { id: "b", ...good, sources: [{ ...sources[0], title: "Policy" }], notes: "x" },
        { ...good, expected: ["30 days", "a month"] },
      ),
    );
    expect(await readDataset(path)).toEqual([
      { id: "7", messages, sources, expected: "30 days" },
      { id: "b", messages, sources },
      { messages, sources, expected: ["30 days", "a month"] },
    ]);
  });

  it("names a case's bad expected answers the way the service does", async () => {
    const path = file("d.jsonl", jsonl({ ...good, expected: [] }));
    await expect(readDataset(path)).rejects.toThrow(/line 1: "expected"/);
  });

  it.each([
    {
      name: "not a dataset shape",
      path: () => file("d.json", '{"rows": []}'),
      message: /d\.json: expected \{"cases": \[\.\.\.\]\}/,
    },
    {
      name: "a case that is not an object",
      path: () => file("d.jsonl", "[1]"),
      message: /d\.jsonl: line 1: a case must be an object/,
    },
    {
      name: "no messages",
      path: () => file("d.jsonl", jsonl({ sources })),
      message: /line 1: the case has no messages/,
    },
    {
      name: "an empty message list",
      path: () => file("d.jsonl", jsonl({ messages: [], sources })),
      message: /line 1: "messages" must hold at least 1 item\./,
    },
    {
      name: "a source without text",
      path: () => file("d.jsonl", jsonl({ messages, sources: [{ id: "a" }] })),
      message: /line 1: "sources\[0\]\.text" is required\./,
    },
    {
      name: "repeated source ids",
      path: () => file("d.jsonl", jsonl({ messages, sources: [...sources, ...sources] })),
      message: /line 1: "sources\[1\]\.id" repeats an earlier source id/,
    },
    {
      name: "an id that is an object",
      path: () => file("d.jsonl", jsonl({ id: {}, ...good })),
      message: /line 1: "id" must be a string or a number; got an object\./,
    },
    {
      name: "an id longer than the service takes",
      path: () => file("d.jsonl", jsonl({ id: "x".repeat(257), ...good })),
      message: /line 1: "id" is 257 characters long; the limit is 256\./,
    },
    {
      name: "a text file that is neither JSON nor JSONL",
      path: () => file("d.txt", "hello\nworld"),
      message: /d\.txt: line 1: invalid JSON/,
    },
  ])("rejects $name", async ({ path, message }) => {
    await expect(readDataset(path())).rejects.toThrow(message);
  });
});
