import { describe, expect, it } from "vitest";
import { decodeAnswerSteps, firstChoice, parseChatCompletion } from "./completion.js";

const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

describe("parseChatCompletion", () => {
  it.each<{ name: string; body: string; expected: object }>([
    {
      name: "a completion with usage",
      body: JSON.stringify({
        choices: [
          { index: 0, finish_reason: "stop", message: { role: "assistant", content: '{"claims":[]}' } },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
      }),
      expected: {
        ok: true,
        value: {
          content: '{"claims":[]}',
          usage: { promptTokens: 12, completionTokens: 3, totalTokens: 15 },
        },
      },
    },
    {
      name: "truncated output (finish_reason length) is still a completion",
      body: JSON.stringify({
        choices: [{ finish_reason: "length", message: { content: '{"claims": [{"cl' } }],
      }),
      expected: { ok: true, value: { content: '{"claims": [{"cl', usage } },
    },
    {
      name: "null content reads as empty",
      body: JSON.stringify({ choices: [{ message: { role: "assistant", content: null, refusal: "no" } }] }),
      expected: { ok: true, value: { content: "", usage } },
    },
    {
      name: "content parts are joined",
      body: JSON.stringify({
        choices: [{ message: { content: [{ type: "text", text: "a" }, "b", { type: "image" }] } }],
      }),
      expected: { ok: true, value: { content: "ab", usage } },
    },
    {
      name: "legacy text choices",
      body: JSON.stringify({ choices: [{ text: "hello" }] }),
      expected: { ok: true, value: { content: "hello", usage } },
    },
    {
      name: "a missing total is the sum; bad counts are 0",
      body: JSON.stringify({
        choices: [{ message: { content: "" } }],
        usage: { prompt_tokens: 4, completion_tokens: "2" },
      }),
      expected: {
        ok: true,
        value: {
          content: "",
          usage: { promptTokens: 4, completionTokens: 0, totalTokens: 4 },
          invalidUsage: ["completion_tokens"],
        },
      },
    },
    {
      name: "a 200 carrying an error object",
      body: JSON.stringify({ error: { message: "quota", code: "insufficient_quota" } }),
      expected: { ok: false, kind: "error_object", info: { message: "quota", code: "insufficient_quota" } },
    },
    {
      name: "JSON without choices",
      body: JSON.stringify({ id: "x", object: "chat.completion" }),
      expected: { ok: false, kind: "malformed", reason: "answered JSON without choices" },
    },
    {
      name: "empty choices",
      body: JSON.stringify({ choices: [] }),
      expected: { ok: false, kind: "malformed", reason: "answered JSON without choices" },
    },
    {
      name: "invalid JSON",
      body: '{"choices": [',
      expected: { ok: false, kind: "malformed", reason: "answered a body that is not JSON" },
    },
    {
      name: "an HTML page",
      body: "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>",
      expected: { ok: false, kind: "malformed", reason: "answered an HTML page instead of JSON" },
    },
    {
      name: "an empty body",
      body: "",
      expected: { ok: false, kind: "malformed", reason: "answered an empty body" },
    },
    {
      name: "JSON that is not an object",
      body: "[1,2]",
      expected: { ok: false, kind: "malformed", reason: "answered JSON that is not an object" },
    },
  ])("$name", ({ body, expected }) => {
    expect(parseChatCompletion(body)).toEqual(expected);
  });
});

describe("decodeAnswerSteps", () => {
  it("decodes an answer of `stepBytes` or more from a step of its own, a shorter one at once", () => {
    const bytes = Buffer.from("café ✓", "utf8");
    const long = decodeAnswerSteps(bytes, bytes.length);
    expect(long.next()).toEqual({ done: false, value: undefined });
    expect(long.next()).toEqual({ done: true, value: "café ✓" });
    expect(decodeAnswerSteps(bytes, bytes.length + 1).next()).toEqual({ done: true, value: "café ✓" });
  });
});

describe("firstChoice", () => {
  const a = { index: 0, message: { content: "a" } };
  const b = { index: 1, message: { content: "b" } };
  it.each([
    ["the choice with index 0, wherever it stands", [b, a], a],
    ["none when only another choice is there (a chunk of n > 1)", [b], undefined],
    [
      "the first of choices without an index",
      [{ message: { content: "x" } }, { message: { content: "y" } }],
      { message: { content: "x" } },
    ],
    ["none of no choices", [], undefined],
    ["none of a choices field that is not an array", { 0: a }, undefined],
  ])("is %s", (_name, choices, expected) => {
    expect(firstChoice(choices)).toEqual(expected);
  });

  it("is the choice a completion's content is read from", () => {
    const parsed = parseChatCompletion(
      JSON.stringify({
        choices: [
          { index: 1, message: { content: "b" } },
          { index: 0, message: { content: "a" } },
        ],
      }),
    );
    expect(parsed).toMatchObject({ ok: true, value: { content: "a" } });
  });
});
