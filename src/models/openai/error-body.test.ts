import { describe, expect, it } from "vitest";
import { readGatewayError } from "./error-body.js";

describe("readGatewayError", () => {
  it.each<{ name: string; body: unknown; expected: object | undefined }>([
    {
      name: "OpenAI's error object",
      body: {
        error: {
          message: "Invalid key",
          type: "invalid_request_error",
          code: "invalid_api_key",
          param: null,
        },
      },
      expected: { message: "Invalid key", type: "invalid_request_error", code: "invalid_api_key" },
    },
    {
      name: "a numeric code, as OpenRouter sends",
      body: { error: { message: "Provider returned error", code: 502 } },
      expected: { message: "Provider returned error", code: "502" },
    },
    {
      name: "a bare error string",
      body: { error: "model not loaded", code: "x" },
      expected: { message: "model not loaded", code: "x" },
    },
    {
      name: "a top-level message",
      body: { message: "Budget exceeded", type: "budget_exceeded" },
      expected: { message: "Budget exceeded", type: "budget_exceeded" },
    },
    { name: "FastAPI detail text", body: { detail: "Not Found" }, expected: { message: "Not Found" } },
    {
      name: "FastAPI detail list",
      body: { detail: [{ msg: "field required" }] },
      expected: { message: '[{"msg":"field required"}]' },
    },
    { name: "a completion without error", body: { choices: [] }, expected: undefined },
    { name: "a null error", body: { error: null, choices: [] }, expected: undefined },
    { name: "not an object", body: ["error"], expected: undefined },
    { name: "null", body: null, expected: undefined },
  ])("$name", ({ body, expected }) => {
    expect(readGatewayError(body)).toEqual(expected);
  });
});
