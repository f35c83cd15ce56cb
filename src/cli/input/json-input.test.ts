import { describe, expect, it } from "vitest";
import { jsonElementLines, parseJsonDocument } from "./json-input.js";

describe("parseJsonDocument", () => {
  it.each([
    { name: "valid JSON", text: '{"a": [1]}', expected: { ok: true, value: { a: [1] } } },
    {
      name: "a missing value on line 3",
      text: '{\n  "a": [],\n  "b": [,]\n}',
      expected: { ok: false, line: 3, message: "invalid JSON: value expected" },
    },
    {
      name: "a trailing comma",
      text: '{"a": 1,}',
      expected: { ok: false, line: 1, message: "invalid JSON: property name expected" },
    },
    {
      name: "a comment is not JSON",
      text: '{\n// no\n"a": 1}',
      expected: { ok: false, line: 2, message: "invalid JSON: invalid comment token" },
    },
    {
      name: "empty input",
      text: "  \n",
      expected: { ok: false, line: 1, message: "empty input, expected a JSON document" },
    },
  ])("$name", ({ text, expected }) => {
    expect(parseJsonDocument(text)).toEqual(expected);
  });

  it("offsets lines by the first line number (JSONL)", () => {
    expect(parseJsonDocument("{bad", 7)).toEqual({
      ok: false,
      line: 7,
      message: "invalid JSON: invalid symbol",
    });
  });
});

describe("jsonElementLines", () => {
  it.each([
    { name: "a root array", text: '[\n  {"a": 1},\n\n  {"a": 2}\n]', path: [], lines: [2, 4] },
    {
      name: "an array under a key",
      text: '{\n"cases": [{"a": 1}, {"a": 2},\n{"a": 3}]}',
      path: ["cases"],
      lines: [2, 2, 3],
    },
    { name: "no array there", text: '{"cases": 5}', path: ["cases"], lines: [] },
    { name: "a missing key", text: "{}", path: ["cases"], lines: [] },
  ])("$name", ({ text, path, lines }) => {
    expect(jsonElementLines(text, path)).toEqual(lines);
  });
});

describe("jsonElementLines' cost", () => {
  /** A pretty-printed dataset of `cases` cases, each over several lines. */
  function prettyDataset(cases: number): string {
    const items = Array.from({ length: cases }, (_, index) => ({
      id: `case-${index}`,
      question: "How long is the warranty?",
      sources: [{ id: "handbook", text: "The warranty lasts two years." }],
    }));
    return JSON.stringify({ cases: items }, null, 2);
  }

  it.each([1_000, 4_000])(
    "passes each newline once for %i pretty-printed cases (linear, not cases × lines)",
    (cases) => {
      const text = prettyDataset(cases);
      const steps = { steps: 0 };
      const lines = jsonElementLines(text, ["cases"], steps);
      expect(lines).toHaveLength(cases);
      const lastLine = lines.at(-1) ?? 0;
      // Line L starts after L - 1 newlines: exactly those before the last case are passed, each once.
      expect(steps.steps).toBe(lastLine - 1);
      expect(steps.steps).toBeLessThan(text.length);
      // The lines are right: each names the line where its case's `{` stands.
      const textLines = text.split("\n");
      for (const [index, line] of lines.entries())
        expect(textLines[line - 1]?.trim(), `case ${index}`).toBe("{");
    },
  );
});
