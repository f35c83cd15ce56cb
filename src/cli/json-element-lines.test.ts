import { describe, expect, it } from "vitest";
import { jsonElementLines } from "./json-element-lines.js";

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
