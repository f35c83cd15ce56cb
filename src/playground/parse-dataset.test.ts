import { describe, expect, it } from "vitest";
import { type DatasetCase, parseDataset } from "./parse-dataset.js";

const first: DatasetCase = {
  messages: [{ role: "user", content: "When was it founded?" }],
  sources: [{ id: "a", text: "It was founded in 1901." }],
};
const second: DatasetCase = {
  id: "two",
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Who?" },
  ],
  sources: [{ id: "b", text: "Ada did it." }],
};

describe("parseDataset: accepted formats", () => {
  it.each([
    { name: "JSON object with cases", text: JSON.stringify({ cases: [first, second] }), fileName: "d.json" },
    { name: "bare JSON array", text: JSON.stringify([first, second]), fileName: "d.json" },
    { name: "JSONL", text: `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`, fileName: "d.jsonl" },
    {
      name: "JSONL with CRLF and blank lines",
      text: `\r\n${JSON.stringify(first)}\r\n\r\n${JSON.stringify(second)}`,
      fileName: "d.jsonl",
    },
    {
      name: "JSONL without a telling name",
      text: `${JSON.stringify(first)}\n${JSON.stringify(second)}`,
      fileName: "",
    },
    {
      name: "JSON without a telling name",
      text: JSON.stringify([first, second], null, 2),
      fileName: "data.txt",
    },
  ])("$name", ({ text, fileName }) => {
    expect(parseDataset(text, fileName)).toEqual({ ok: true, cases: [first, second] });
  });

  it("keeps a numeric id as text and expected answers, and drops fields the service would reject", () => {
    const text = JSON.stringify([
      {
        id: 7,
        expected: "x",
        notes: "n",
        messages: [{ role: "user", content: "q", name: "n" }],
        sources: [{ id: "s", text: "t", url: "u" }],
      },
    ]);
    expect(parseDataset(text, "d.json")).toEqual({
      ok: true,
      cases: [
        {
          id: "7",
          expected: "x",
          messages: [{ role: "user", content: "q" }],
          sources: [{ id: "s", text: "t" }],
        },
      ],
    });
  });

  it.each([
    { expected: "", error: "must not be empty" },
    { expected: [], error: "must list 1 to 20 answers" },
    { expected: ["a", 3], error: "must list non-empty strings" },
    { expected: 3, error: "must be a string or a list of strings" },
  ])("rejects expected $expected: $error", ({ expected, error }) => {
    const text = JSON.stringify([
      { expected, messages: [{ role: "user", content: "q" }], sources: [{ id: "s", text: "t" }] },
    ]);
    const parsed = parseDataset(text, "d.json");
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.error).toContain(`"expected" ${error}`);
  });
});

describe("parseDataset: errors name the place", () => {
  const line = (value: unknown) => JSON.stringify(value);
  it.each([
    { name: "empty text", text: "  \n", fileName: "d.json", error: "The dataset is empty." },
    { name: "no cases", text: '{"cases": []}', fileName: "d.json", error: "The dataset holds no cases." },
    {
      name: "wrong top-level shape",
      text: '{"items": []}',
      fileName: "d.json",
      error: 'Expected {"cases": [...]} or an array of cases (or JSONL, one case per line).',
    },
    {
      name: "case without sources",
      text: line([first, { messages: first.messages, sources: [] }]),
      fileName: "d.json",
      error: 'case 2: "sources" must be a non-empty array of {id, text}.',
    },
    {
      name: "case without messages",
      text: line([{ sources: first.sources }]),
      fileName: "d.json",
      error: 'case 1: "messages" must be a non-empty array of {role, content}.',
    },
    {
      name: "bad role",
      text: line([{ messages: [{ role: "bot", content: "x" }], sources: first.sources }]),
      fileName: "d.json",
      error: 'case 1: messages[0].role is "bot"; use system, user or assistant.',
    },
    {
      name: "source text not a string",
      text: line([{ messages: first.messages, sources: [{ id: "a", text: 3 }] }]),
      fileName: "d.json",
      error: "case 1: sources[0] must be {id, text} with string values.",
    },
    {
      name: "an id longer than the service takes",
      text: line([{ ...first, id: "x".repeat(257) }]),
      fileName: "d.json",
      error: 'case 1: "id" is 257 characters long; the limit is 256.',
    },
    {
      name: "an id that is an object",
      text: line([{ ...first, id: {} }]),
      fileName: "d.json",
      error: 'case 1: "id" must be a string or a number.',
    },
    {
      name: "JSONL case that is not an object",
      text: `${line(first)}\n\n[1]\n`,
      fileName: "d.jsonl",
      error: "case 2 (line 3): expected an object {messages, sources}.",
    },
  ])("$name", ({ text, fileName, error }) => {
    expect(parseDataset(text, fileName)).toEqual({ ok: false, error });
  });

  it("reports the line of invalid JSONL", () => {
    const result = parseDataset(`${line(first)}\n{"messages": [}\n`, "d.jsonl");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^Invalid JSON on line 2: /);
  });

  it("reports the line of invalid JSON", () => {
    const result = parseDataset('{\n  "cases": [\n    {"messages": [],}\n  ]\n}', "d.json");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^Invalid JSON at line 3: /);
  });
});
