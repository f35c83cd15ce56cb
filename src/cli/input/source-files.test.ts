import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSourceFiles } from "./source-files.js";

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "read-sources-")), name);
  writeFileSync(path, text);
  return path;
}

describe("readSourceFiles", () => {
  it("makes each plain file a source named after the file, in order", async () => {
    const paths = [file("notes.md", "# Notes\nLine."), file("data.csv", "a,b\n1,2\n")];
    expect(await readSourceFiles(paths)).toEqual([
      { id: "notes.md", text: "# Notes\nLine." },
      { id: "data.csv", text: "a,b\n1,2\n" },
    ]);
  });

  it.each([
    { name: "one object", text: '{"id": "a", "text": "A."}', ids: ["a"] },
    {
      name: "an array",
      text: '[{"id": "a", "text": "A."}, {"id": "b", "text": "B.", "url": "x"}]',
      ids: ["a", "b"],
    },
    { name: "{sources}", text: '{"sources": [{"id": "a", "text": "A."}]}', ids: ["a"] },
  ])("reads $name from a .json file", async ({ text, ids }) => {
    const sources = await readSourceFiles([file("chunks.json", text)]);
    expect(sources.map((source) => source.id)).toEqual(ids);
  });

  it("reads one source per line of a .jsonl file", async () => {
    const path = file("chunks.jsonl", '{"id": "a", "text": "A."}\n\n{"id": "b", "text": "B."}\n');
    expect(await readSourceFiles([path])).toEqual([
      { id: "a", text: "A." },
      { id: "b", text: "B." },
    ]);
  });

  it.each([
    {
      name: "a source without text",
      text: '[{"id": "a", "text": "A."},\n {"id": "b"}]',
      message: /chunks\.json: line 2: source "b" needs a "text" that is a string\./,
    },
    {
      name: "an empty id",
      text: '{"id": "", "text": "A."}',
      message: /chunks\.json: line 1: the source needs an "id"/,
    },
    { name: "an empty array", text: "[]", message: /chunks\.json: holds no sources\./ },
    {
      name: "invalid JSON",
      text: '{\n"id": "a",\n"text": }',
      message: /chunks\.json: line 3: invalid JSON: value expected/,
    },
    {
      name: "a repeated id",
      text: '[{"id": "a", "text": "A."}, {"id": "a", "text": "B."}]',
      message: /source id "a" is already used by .*chunks\.json: line 1/,
    },
  ])("rejects $name", async ({ text, message }) => {
    await expect(readSourceFiles([file("chunks.json", text)])).rejects.toThrow(message);
  });
});
