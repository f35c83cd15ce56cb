import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { camelCaseKey, fromWire, snakeCaseKey, toWire } from "./case-mapping.js";

describe("key renaming", () => {
  it.each([
    ["maxTokens", "max_tokens"],
    ["allowUngrounded", "allow_ungrounded"],
    ["minCoverage", "min_coverage"],
    ["checkNumbers", "check_numbers"],
    ["modelCalls", "model_calls"],
    ["totalTokens", "total_tokens"],
    ["promptTokens", "prompt_tokens"],
    ["completionTokens", "completion_tokens"],
    ["coverageMean", "coverage_mean"],
    ["unsupportedRate", "unsupported_rate"],
    ["range", "range"],
    ["_private", "_private"],
    ["id", "id"],
  ])("%s ⇄ %s", (camel, snake) => {
    expect(snakeCaseKey(camel)).toBe(snake);
    expect(camelCaseKey(snake)).toBe(camel);
  });

  it("round-trips every snake_case key made of lowercase words", () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), (words) => {
        const snake = words.join("_");
        expect(snakeCaseKey(camelCaseKey(snake))).toBe(snake);
      }),
    );
  });
});

describe("toWire", () => {
  it("converts a create request, leaving every value alone", () => {
    const request = {
      model: "local",
      messages: [{ role: "user", content: "What is maxTokens? Say it in snake_case: max_tokens." }],
      sources: [{ id: "fileName_v2", text: "checkNumbers is a camelCase word." }],
      checkNumbers: "row",
      allowUngrounded: true,
      minCoverage: 0.5,
      maxTokens: 256,
      temperature: 0,
      retry: 1,
    };
    expect(toWire(request)).toEqual({
      model: "local",
      messages: [{ role: "user", content: "What is maxTokens? Say it in snake_case: max_tokens." }],
      sources: [{ id: "fileName_v2", text: "checkNumbers is a camelCase word." }],
      check_numbers: "row",
      allow_ungrounded: true,
      min_coverage: 0.5,
      max_tokens: 256,
      temperature: 0,
      retry: 1,
    });
  });

  it("keeps the caller's field names in an extract schema", () => {
    const request = {
      model: "local",
      sources: [{ id: "a", text: "x" }],
      schema: { invoiceNumber: "The invoice number", due_date: "When payment is due", __proto__x: "odd" },
    };
    expect(toWire(request)).toEqual(request);
  });

  it("keeps a schema field literally named __proto__ as an ordinary key", () => {
    const schema = JSON.parse('{"__proto__": "a field"}') as Record<string, string>;
    const wire = toWire({ schema }) as { schema: Record<string, string> };
    expect(Object.keys(wire.schema)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(wire.schema)).toBe(Object.prototype);
  });

  it("drops nothing and keeps the range tuple", () => {
    expect(toWire({ claims: [{ claim: "c", quote: "q", source: "s" }], checkNumbers: false })).toEqual({
      claims: [{ claim: "c", quote: "q", source: "s" }],
      check_numbers: false,
    });
  });
});

describe("fromWire", () => {
  it("converts a create result", () => {
    const wire = {
      id: "vfd_1",
      model: "local",
      text: "Paris is the capital [geo_facts].",
      citations: [
        { claim: "Paris is the capital", quote: "Paris is the capital", source: "geo_facts", range: [0, 20] },
      ],
      unsupported: [{ claim: "x", reason: "quote_not_found" }],
      coverage: 0.5,
      abstained: false,
      grounded: true,
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, model_calls: 1 },
    };
    expect(fromWire(wire)).toEqual({
      ...wire,
      usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15, modelCalls: 1 },
    });
  });

  it("keeps the caller's field names in extract `fields`, converting only what is under them", () => {
    const wire = {
      id: "ext_1",
      model: "local",
      fields: {
        invoice_number: { value: "INV-1", source: "doc_a", range: [4, 9], grounded: true },
        dueDate: { value: null, grounded: false, reason: "not_found" },
        fields: { value: null, grounded: false, reason: "not_found" },
      },
      coverage: 0.5,
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, model_calls: 1 },
    };
    expect(fromWire(wire)).toEqual({
      ...wire,
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, modelCalls: 1 },
    });
  });

  it("converts an eval result, including per-case errors", () => {
    const wire = {
      aggregate: { coverage_mean: 0.75, unsupported_rate: 0.25, n: 2, errored: 1 },
      cases: [
        { coverage: 0.75, citations: 3, unsupported: 1 },
        { error: { type: "extraction_failed", code: "extraction_failed", message: "bad output" } },
      ],
      usage: { total_tokens: 40, model_calls: 3 },
    };
    expect(fromWire(wire)).toEqual({
      aggregate: { coverageMean: 0.75, unsupportedRate: 0.25, n: 2, errored: 1 },
      cases: wire.cases,
      usage: { totalTokens: 40, modelCalls: 3 },
    });
  });

  it("is the inverse of toWire on structural keys", () => {
    const value = { checkNumbers: true, nested: [{ minCoverage: 1, schema: { someField: "d" } }] };
    expect(fromWire(toWire(value))).toEqual(value);
  });
});
