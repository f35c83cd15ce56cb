import { describe, expect, it } from "vitest";
import { type GatewayFailure, mapGatewayError, readGatewayError } from "./error-mapping.js";

const now = Date.parse("2025-01-01T00:00:00Z");

/** The failure as plain data, so a case can assert the whole shape. */
function flatten(failure: GatewayFailure) {
  if (failure.action !== "fail") return failure;
  return {
    action: failure.action,
    type: failure.error.type,
    status: failure.error.status,
    message: failure.error.message,
    details: failure.error.details,
  };
}

const openAIError = (message: string, code?: string, type?: string, param?: string) =>
  JSON.stringify({
    error: { message, type: type ?? "invalid_request_error", code: code ?? null, param: param ?? null },
  });

describe("mapGatewayError", () => {
  it.each<{
    name: string;
    status: number;
    body: string;
    headers?: Record<string, string>;
    responseFormatSent?: boolean;
    expected: object;
  }>([
    {
      name: "401 → invalid_key, key masked",
      status: 401,
      body: openAIError("Incorrect API key provided: sk-abcdef123456.", "invalid_api_key"),
      expected: {
        action: "fail",
        type: "invalid_key",
        status: 401,
        message:
          "The gateway refused the API key (HTTP 401 [invalid_api_key]: Incorrect API key provided: sk-***).",
        details: {},
      },
    },
    {
      name: "403 → invalid_key",
      status: 403,
      body: openAIError("Not allowed to call this model"),
      expected: {
        action: "fail",
        type: "invalid_key",
        status: 401,
        message: "The gateway refused the API key (HTTP 403: Not allowed to call this model).",
        details: {},
      },
    },
    {
      name: "Gemini's 400 for a key that is not valid → invalid_key",
      status: 400,
      body: JSON.stringify([
        {
          error: {
            code: 400,
            message: "API key not valid. Please pass a valid API key.",
            status: "INVALID_ARGUMENT",
          },
        },
      ]),
      expected: {
        action: "fail",
        type: "invalid_key",
        status: 401,
        message:
          "The gateway refused the API key (HTTP 400: API key not valid. Please pass a valid API key).",
        details: {},
      },
    },
    {
      name: "402 → insufficient_quota",
      status: 402,
      body: JSON.stringify({ error: { message: "Insufficient credits", code: 402 } }),
      expected: {
        action: "fail",
        type: "insufficient_quota",
        status: 402,
        message: "The gateway reports exhausted credits or quota (HTTP 402: Insufficient credits).",
        details: {},
      },
    },
    {
      name: "429 insufficient_quota → insufficient_quota, not rate_limited",
      status: 429,
      body: openAIError(
        "You exceeded your current quota, please check your plan.",
        "insufficient_quota",
        "insufficient_quota",
      ),
      headers: { "retry-after": "20" },
      expected: {
        action: "fail",
        type: "insufficient_quota",
        status: 402,
        message:
          "The gateway reports exhausted credits or quota (HTTP 429 [insufficient_quota]: You exceeded your current quota, please check your plan).",
        details: {},
      },
    },
    {
      name: "a budget error on a 400 (LiteLLM) → insufficient_quota",
      status: 400,
      body: JSON.stringify({
        error: { message: "Budget has been exceeded! Current cost: 10.2", type: "budget_exceeded" },
      }),
      expected: {
        action: "fail",
        type: "insufficient_quota",
        status: 402,
        message:
          "The gateway reports exhausted credits or quota (HTTP 400: Budget has been exceeded! Current cost: 10.2).",
        details: {},
      },
    },
    {
      name: "429 with Retry-After → rate_limited with seconds",
      status: 429,
      body: openAIError("Rate limit reached for requests", "rate_limit_exceeded"),
      headers: { "retry-after": "20" },
      expected: {
        action: "fail",
        type: "rate_limited",
        status: 429,
        message:
          "The gateway rate-limited the call (HTTP 429 [rate_limit_exceeded]: Rate limit reached for requests); retry after 20 s.",
        details: { retryAfterSeconds: 20 },
      },
    },
    {
      name: "429 with an HTTP-date Retry-After",
      status: 429,
      body: "",
      headers: { "retry-after": "Wed, 01 Jan 2025 00:01:00 GMT" },
      expected: {
        action: "fail",
        type: "rate_limited",
        status: 429,
        message: "The gateway rate-limited the call (HTTP 429); retry after 60 s.",
        details: { retryAfterSeconds: 60 },
      },
    },
    {
      name: "429 without Retry-After",
      status: 429,
      body: "Too Many Requests",
      expected: {
        action: "fail",
        type: "rate_limited",
        status: 429,
        message: "The gateway rate-limited the call (HTTP 429: Too Many Requests); retry later.",
        details: {},
      },
    },
    {
      name: "404 → model_not_found",
      status: 404,
      body: openAIError("The model `gpt-9` does not exist", "model_not_found"),
      expected: {
        action: "fail",
        type: "model_not_found",
        status: 404,
        message:
          'The gateway does not know model "gpt-9" (HTTP 404 [model_not_found]: The model `gpt-9` does not exist); check the model id, and that the gateway URL includes any /v1 prefix the gateway needs.',
        details: {},
      },
    },
    {
      name: "a 400 naming an unknown model → model_not_found",
      status: 400,
      body: openAIError("Invalid model name passed in model=gpt-9"),
      expected: {
        action: "fail",
        type: "model_not_found",
        status: 404,
        message:
          'The gateway does not know model "gpt-9" (HTTP 400: Invalid model name passed in model=gpt-9); check the model id, and that the gateway URL includes any /v1 prefix the gateway needs.',
        details: {},
      },
    },
    {
      name: "a 400 refusing json_schema → downgrade",
      status: 400,
      body: openAIError(
        "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
      ),
      responseFormatSent: true,
      expected: {
        action: "downgrade_response_format",
        reason:
          "HTTP 400: Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model",
      },
    },
    {
      name: "a 422 naming the param → downgrade",
      status: 422,
      body: openAIError("unknown field", undefined, undefined, "response_format"),
      responseFormatSent: true,
      expected: { action: "downgrade_response_format", reason: "HTTP 422: unknown field" },
    },
    {
      name: "the same 400 without a response_format sent → gateway_error",
      status: 400,
      body: openAIError("'response_format' is not supported"),
      expected: {
        action: "fail",
        type: "gateway_error",
        status: 502,
        message: "The gateway rejected the call (HTTP 400: 'response_format' is not supported).",
        details: {},
      },
    },
    {
      name: "another 4xx → gateway_error with the gateway's message",
      status: 400,
      body: openAIError("max_tokens is too large: 999999"),
      expected: {
        action: "fail",
        type: "gateway_error",
        status: 502,
        message: "The gateway rejected the call (HTTP 400: max_tokens is too large: 999999).",
        details: {},
      },
    },
    {
      name: "a 4xx HTML page",
      status: 413,
      body: "<html><body><h1>413 Request Entity Too Large</h1></body></html>",
      expected: {
        action: "fail",
        type: "gateway_error",
        status: 502,
        message: "The gateway rejected the call (HTTP 413: an HTML error page).",
        details: {},
      },
    },
    {
      name: "500 → retry",
      status: 500,
      body: openAIError("boom"),
      expected: { action: "retry", reason: "answered HTTP 500: boom" },
    },
    {
      name: "503 HTML → retry",
      status: 503,
      body: "<html>down</html>",
      expected: { action: "retry", reason: "answered HTTP 503: an HTML error page" },
    },
    {
      name: "a redirect is not followed",
      status: 301,
      body: "",
      headers: { location: "https://elsewhere.example/v1/chat/completions" },
      expected: {
        action: "fail",
        type: "gateway_error",
        status: 502,
        message:
          "The gateway redirected the call (HTTP 301) to https://elsewhere.example/v1/chat/completions; set the gateway URL to the final address.",
        details: {},
      },
    },
    {
      name: "a 200 with a quota error object → insufficient_quota",
      status: 200,
      body: JSON.stringify({ error: { message: "no credits left", code: "insufficient_quota" } }),
      expected: {
        action: "fail",
        type: "insufficient_quota",
        status: 402,
        message:
          "The gateway reports exhausted credits or quota (HTTP 200 [insufficient_quota]: no credits left).",
        details: {},
      },
    },
    {
      name: "a 200 with another error object → gateway_error",
      status: 200,
      body: JSON.stringify({ error: { message: "something odd", type: "server_error" } }),
      expected: {
        action: "fail",
        type: "gateway_error",
        status: 502,
        message: "The gateway answered with an error (HTTP 200: something odd).",
        details: {},
      },
    },
    {
      name: "a 200 with a numeric 401 code → invalid_key",
      status: 200,
      body: JSON.stringify({ error: { message: "No auth credentials found", code: 401 } }),
      expected: {
        action: "fail",
        type: "invalid_key",
        status: 401,
        message: "The gateway refused the API key (HTTP 200 [401]: No auth credentials found).",
        details: {},
      },
    },
    {
      name: "a 200 with a numeric 502 code → retry",
      status: 200,
      body: JSON.stringify({ error: { message: "Provider returned error", code: 502 } }),
      expected: { action: "retry", reason: "answered HTTP 200 [502]: Provider returned error" },
    },
  ])("$name", ({ status, body, headers, responseFormatSent, expected }) => {
    const failure = mapGatewayError({
      status,
      headers: new Headers(headers),
      bodyText: body,
      model: "gpt-9",
      responseFormatSent: responseFormatSent ?? false,
      nowMs: now,
    });
    expect(flatten(failure)).toEqual(expected);
  });

  it("masks the key that was sent even when it does not look like one", () => {
    const failure = mapGatewayError({
      status: 401,
      headers: new Headers(),
      bodyText: openAIError("key mykey42 is not valid"),
      model: "m",
      responseFormatSent: false,
      nowMs: now,
      knownSecrets: ["mykey42"],
    });
    expect(flatten(failure)).toMatchObject({
      message: "The gateway refused the API key (HTTP 401: key *** is not valid).",
    });
  });

  it("cuts a long gateway message to 300 characters", () => {
    const failure = mapGatewayError({
      status: 400,
      headers: new Headers(),
      bodyText: openAIError(`bad ${"word ".repeat(200)}`),
      model: "m",
      responseFormatSent: false,
      nowMs: now,
    });
    expect(failure.action === "fail" && failure.error.message.length).toBeLessThan(360);
  });
});

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
