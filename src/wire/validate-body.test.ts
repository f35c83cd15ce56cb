import { describe, expect, it } from "vitest";
import { CreateRequestSchema, ExtractRequestSchema } from "./schemas.js";
import { compileValidator, pathToParam } from "./validate-body.js";

const validateCreate = compileValidator(CreateRequestSchema);
const validateExtract = compileValidator(ExtractRequestSchema);
const valid = {
  model: "local",
  messages: [{ role: "user", content: "When can I get a refund?" }],
  sources: [{ id: "policy", text: "Refunds within 30 days." }],
};

describe("pathToParam", () => {
  it.each([
    { path: "", expected: undefined },
    { path: "/model", expected: "model" },
    { path: "/messages/0/role", expected: "messages[0].role" },
    { path: "/schema/a~1b", expected: "schema.a/b" },
  ])("$path → $expected", ({ path, expected }) => {
    expect(pathToParam(path)).toBe(expected);
  });
});

describe("compileValidator", () => {
  it("accepts a valid body and returns it", () => {
    expect(validateCreate(valid)).toEqual({ ok: true, value: valid });
  });

  it.each([
    { name: "not an object", body: [], param: undefined, message: '"body" must be an object; got an array.' },
    {
      name: "missing model",
      body: { messages: valid.messages, sources: valid.sources },
      param: "model",
      message: '"model" is required.',
    },
    {
      name: "wrong type",
      body: { ...valid, messages: "hi" },
      param: "messages",
      message: '"messages" must be an array; got "hi".',
    },
    {
      name: "bad enum",
      body: { ...valid, mode: "fast" },
      param: "mode",
      message: '"mode" must be one of "strict", "lenient"; got "fast".',
    },
    {
      name: "bad check_numbers",
      body: { ...valid, check_numbers: "cell" },
      param: "check_numbers",
      message: '"check_numbers" must be one of true, false, "source", "row", "quote"; got "cell".',
    },
    {
      name: "camelCase field",
      body: { ...valid, maxTokens: 10 },
      param: "maxTokens",
      message: '"maxTokens" is not a known field; did you mean "max_tokens"?',
    },
    {
      name: "unknown nested field",
      body: { ...valid, sources: [{ id: "a", text: "b", url: "x" }] },
      param: "sources[0].url",
      message: '"sources[0].url" is not a known field. Known fields: id, text.',
    },
    {
      name: "empty source id",
      body: { ...valid, sources: [{ id: "", text: "b" }] },
      param: "sources[0].id",
      message: '"sources[0].id" must not be empty.',
    },
    {
      name: "role outside the enum",
      body: { ...valid, messages: [{ role: "tool", content: "x" }] },
      param: "messages[0].role",
      message: '"messages[0].role" must be one of "system", "user", "assistant"; got "tool".',
    },
    {
      name: "no messages",
      body: { ...valid, messages: [] },
      param: "messages",
      message: '"messages" must hold at least 1 item.',
    },
    {
      name: "min_coverage out of range",
      body: { ...valid, min_coverage: 1.5 },
      param: "min_coverage",
      message: '"min_coverage" must be between 0 and 1; got 1.5.',
    },
    {
      name: "fractional retry",
      body: { ...valid, retry: 1.5 },
      param: "retry",
      message: '"retry" must be a whole number; got 1.5.',
    },
  ])("$name", ({ body, param, message }) => {
    expect(validateCreate(body)).toEqual({ ok: false, param, message });
  });

  it("reports an empty extract schema", () => {
    expect(validateExtract({ model: "local", sources: [], schema: {} })).toEqual({
      ok: false,
      param: "schema",
      message: '"schema" must have 1 to 100 fields; got 0.',
    });
  });
});
