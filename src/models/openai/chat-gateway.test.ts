import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  completion,
  errorReply,
  hangReply,
  htmlReply,
  hugeReply,
  jsonReply,
  resetReply,
  type ScriptedGateway,
  type ScriptedReply,
  startScriptedGateway,
  textReply,
  trickleReply,
} from "../../../test/support/scripted-gateway.js";
import { ServiceError } from "../../errors/service-error.js";
import type { GenerateRequest } from "../types.js";
import { createOpenAIChatGateway, type OpenAIChatGatewayOptions } from "./chat-gateway.js";

let upstream: ScriptedGateway;
/** Backoff delays asked of the injected sleep, which returns at once. */
let delays: number[];

beforeEach(async () => {
  upstream = await startScriptedGateway();
  delays = [];
});

afterEach(async () => {
  await upstream.close();
});

function gateway(options: Partial<OpenAIChatGatewayOptions> = {}) {
  return createOpenAIChatGateway({
    baseURL: upstream.url,
    timeoutMs: 2000,
    random: () => 0.5,
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...options,
  });
}

const messages: GenerateRequest["messages"] = [
  { role: "system", content: "Answer from the sources." },
  { role: "user", content: "What is the revenue?" },
];
const responseSchema = {
  name: "claims",
  schema: { type: "object", properties: { claims: { type: "array" } } },
};

function request(overrides: Partial<GenerateRequest> = {}): GenerateRequest {
  return { model: "gpt-test", messages, task: { kind: "answer", messages }, ...overrides };
}

/** The rejection of `promise` as plain data: type, status, message and details of the ServiceError. */
async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (reason: unknown) => reason,
  );
  if (!(error instanceof ServiceError)) throw error;
  return { type: error.type, status: error.status, message: error.message, details: error.details };
}

const formatOf = (index: number) =>
  (upstream.calls[index]?.body as { response_format?: { type: string } } | undefined)?.response_format?.type;

describe("createOpenAIChatGateway: the request", () => {
  it("passes model, messages, temperature, max_tokens and a strict json_schema; returns content and usage", async () => {
    upstream.script(() =>
      completion('{"claims": []}', { usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } }),
    );
    const result = await gateway().generate(request({ temperature: 0.2, maxTokens: 100, responseSchema }));
    expect(result).toEqual({
      content: '{"claims": []}',
      usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 },
    });
    expect(upstream.calls.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      {
        method: "POST",
        path: "/v1/chat/completions",
        body: {
          model: "gpt-test",
          messages,
          temperature: 0.2,
          max_tokens: 100,
          response_format: {
            type: "json_schema",
            json_schema: { name: "claims", schema: responseSchema.schema, strict: true },
          },
        },
      },
    ]);
  });

  it("omits temperature, max_tokens and response_format when not given", async () => {
    await gateway().generate(request());
    expect(upstream.calls[0]?.body).toEqual({ model: "gpt-test", messages });
  });

  it("passes temperature 0 and max_tokens 0 rather than dropping them as falsy", async () => {
    await gateway().generate(request({ temperature: 0, maxTokens: 0 }));
    expect(upstream.calls[0]?.body).toEqual({ model: "gpt-test", messages, temperature: 0, max_tokens: 0 });
  });

  it("sends only role and content of each message", async () => {
    const extra = [
      { role: "user", content: "hi", name: "x", tool_calls: [] },
    ] as unknown as GenerateRequest["messages"];
    await gateway().generate(request({ messages: extra }));
    expect(upstream.calls[0]?.body).toEqual({
      model: "gpt-test",
      messages: [{ role: "user", content: "hi" }],
    });
  });

  it("sends the key as a bearer header, the content type and the configured extra headers", async () => {
    await gateway({
      headers: { "x-portkey-provider": "openai", "cf-aig-authorization": "Bearer cf" },
    }).generate(request({ apiKey: "sk-caller" }));
    expect(upstream.calls[0]?.headers).toMatchObject({
      authorization: "Bearer sk-caller",
      "content-type": "application/json",
      "x-portkey-provider": "openai",
      "cf-aig-authorization": "Bearer cf",
    });
  });

  it("sends no authorization header without a key, and the request key wins over a configured one", async () => {
    await gateway().generate(request());
    await gateway({ headers: { Authorization: "Bearer configured" } }).generate(request());
    await gateway({ headers: { Authorization: "Bearer configured" } }).generate(
      request({ apiKey: "caller" }),
    );
    expect(upstream.calls.map((call) => call.headers.authorization)).toEqual([
      undefined,
      "Bearer configured",
      "Bearer caller",
    ]);
  });

  it("sends Azure's api-key header, query parameters and max_completion_tokens when configured", async () => {
    const azure = await startScriptedGateway({
      completionsPath: "/v1/chat/completions?api-version=2024-10-21&x=a+b",
    });
    try {
      const client = gateway({
        baseURL: azure.url,
        authHeader: "api-key",
        query: { "api-version": "2024-10-21", x: "a b" },
        tokenParameter: "max_completion_tokens",
      });
      await client.generate(request({ apiKey: "azure-key", maxTokens: 64 }));
      const call = azure.calls[0];
      expect(call?.headers["api-key"]).toBe("azure-key");
      expect(call?.headers.authorization).toBeUndefined();
      expect(call?.body).toMatchObject({ max_completion_tokens: 64 });
      expect(call?.body).not.toHaveProperty("max_tokens");
    } finally {
      await azure.close();
    }
  });

  it("sends no key with auth none, even when the request brings one", async () => {
    await gateway({ authHeader: "none" }).generate(request({ apiKey: "caller-key" }));
    expect(upstream.calls[0]?.headers.authorization).toBeUndefined();
    expect(upstream.calls[0]?.headers["api-key"]).toBeUndefined();
  });

  it("strips a trailing slash from the base URL", async () => {
    await gateway({ baseURL: `${upstream.url}/` }).generate(request());
    expect(upstream.calls[0]?.path).toBe("/v1/chat/completions");
  });

  it("lets nothing in the request change the URL or the headers", async () => {
    const model = "../../admin?x=1#frag\r\nX-Injected: 1";
    await gateway().generate(
      request({
        model,
        messages: [{ role: "user", content: "Host: evil.example\r\nAuthorization: Bearer stolen" }],
      }),
    );
    expect(upstream.calls[0]?.path).toBe("/v1/chat/completions");
    expect(upstream.calls[0]?.headers["x-injected"]).toBeUndefined();
    expect(upstream.calls[0]?.headers.host).toBe(new URL(upstream.url).host);
    expect(upstream.calls[0]?.body).toMatchObject({ model });
  });

  it("refuses a key that cannot be a header value, without calling the gateway", async () => {
    expect(await failure(gateway().generate(request({ apiKey: "sk-1\r\nX-Injected: 1" })))).toEqual({
      type: "invalid_key",
      status: 401,
      message: "The API key holds characters that cannot be sent in a header.",
      details: {},
    });
    expect(upstream.calls).toEqual([]);
  });

  it.each([
    { name: "a relative URL", baseURL: "/v1" },
    { name: "a non-HTTP URL", baseURL: "ftp://127.0.0.1/v1" },
  ])("rejects $name at creation", ({ baseURL }) => {
    expect(() => createOpenAIChatGateway({ baseURL, timeoutMs: 1000 })).toThrow(TypeError);
  });
});

describe("createOpenAIChatGateway: response_format fallback", () => {
  const refuse = (type: string) =>
    errorReply(400, `response_format type '${type}' is not supported by this model`);

  it("falls back json_schema → json_object → none and remembers the level per model", async () => {
    upstream.script((call) => {
      const format = (call.body as { response_format?: { type: string } }).response_format?.type;
      return format === undefined ? completion("plain") : refuse(format);
    });
    const client = gateway();
    expect((await client.generate(request({ responseSchema }))).content).toBe("plain");
    expect([formatOf(0), formatOf(1), formatOf(2)]).toEqual(["json_schema", "json_object", undefined]);

    await client.generate(request({ responseSchema }));
    expect(upstream.calls.length).toBe(4);
    expect(formatOf(3)).toBeUndefined();

    await client.generate(request({ model: "other-model", responseSchema }));
    expect(formatOf(4)).toBe("json_schema");
    expect(delays).toEqual([]);
  });

  it("starts at the configured level and never asks for a stricter one", async () => {
    upstream.script((call) => {
      const format = (call.body as { response_format?: { type: string } }).response_format?.type;
      return format === "json_object" ? refuse(format) : completion("plain");
    });
    const client = gateway({ structuredOutput: "json_object" });
    await client.generate(request({ responseSchema }));
    await client.generate(request({ responseSchema }));
    expect([formatOf(0), formatOf(1), formatOf(2)]).toEqual(["json_object", undefined, undefined]);

    await gateway({ structuredOutput: "none" }).generate(request({ responseSchema }));
    expect(formatOf(3)).toBeUndefined();
  });

  it("stops at json_object when that works, and remembers it", async () => {
    upstream.script((call) => {
      const format = (call.body as { response_format?: { type: string } }).response_format?.type;
      return format === "json_schema" ? refuse(format) : completion("{}");
    });
    const client = gateway();
    await client.generate(request({ responseSchema }));
    await client.generate(request({ responseSchema }));
    expect(upstream.calls.map((_, index) => formatOf(index))).toEqual([
      "json_schema",
      "json_object",
      "json_object",
    ]);
  });

  it("keeps each gateway instance's memory to itself", async () => {
    upstream.script.replyWith([refuse("json_schema")]);
    await gateway().generate(request({ responseSchema }));
    await gateway().generate(request({ responseSchema }));
    expect(upstream.calls.map((_, index) => formatOf(index))).toEqual([
      "json_schema",
      "json_object",
      "json_schema",
    ]);
  });

  it("reports the last refusal when no level works, and remembers nothing", async () => {
    upstream.script(() => errorReply(400, "this endpoint is not supported"));
    const client = gateway();
    expect(await failure(client.generate(request({ responseSchema })))).toEqual({
      type: "gateway_error",
      status: 502,
      message: "The gateway rejected the call (HTTP 400: this endpoint is not supported).",
      details: {},
    });
    expect(upstream.calls.length).toBe(3);
    await failure(client.generate(request({ responseSchema })));
    expect(formatOf(3)).toBe("json_schema");
  });

  it("does not fall back for a plain answer (no schema asked)", async () => {
    upstream.script(() => refuse("json_schema"));
    await failure(gateway().generate(request()));
    expect(upstream.calls.length).toBe(1);
  });
});

describe("createOpenAIChatGateway: gateway errors", () => {
  it.each<{ name: string; reply: ScriptedReply; expected: object }>([
    {
      name: "401 → invalid_key",
      reply: errorReply(401, "Incorrect API key provided: sk-abcdef123456", { code: "invalid_api_key" }),
      expected: {
        type: "invalid_key",
        status: 401,
        message:
          "The gateway refused the API key (HTTP 401 [invalid_api_key]: Incorrect API key provided: ***).",
        details: {},
      },
    },
    {
      name: "403 → invalid_key",
      reply: errorReply(403, "Forbidden"),
      expected: {
        type: "invalid_key",
        status: 401,
        message: "The gateway refused the API key (HTTP 403: Forbidden).",
        details: {},
      },
    },
    {
      name: "402 → insufficient_quota",
      reply: errorReply(402, "Insufficient credits", { code: 402 }),
      expected: {
        type: "insufficient_quota",
        status: 402,
        message: "The gateway reports exhausted credits or quota (HTTP 402: Insufficient credits).",
        details: {},
      },
    },
    {
      name: "429 insufficient_quota → insufficient_quota",
      reply: errorReply(429, "You exceeded your current quota.", {
        code: "insufficient_quota",
        type: "insufficient_quota",
      }),
      expected: {
        type: "insufficient_quota",
        status: 402,
        message:
          "The gateway reports exhausted credits or quota (HTTP 429 [insufficient_quota]: You exceeded your current quota).",
        details: {},
      },
    },
    {
      name: "a budget error → insufficient_quota",
      reply: errorReply(400, "Budget has been exceeded! Current cost: 10.2", { type: "budget_exceeded" }),
      expected: {
        type: "insufficient_quota",
        status: 402,
        message:
          "The gateway reports exhausted credits or quota (HTTP 400: Budget has been exceeded! Current cost: 10.2).",
        details: {},
      },
    },
    {
      name: "429 with Retry-After seconds → rate_limited",
      reply: errorReply(429, "Rate limit reached", { headers: { "retry-after": "17" } }),
      expected: {
        type: "rate_limited",
        status: 429,
        message: "The gateway rate-limited the call (HTTP 429: Rate limit reached); retry after 17 s.",
        details: { retryAfterSeconds: 17 },
      },
    },
    {
      name: "429 with a Retry-After date → rate_limited",
      reply: errorReply(429, "Slow down", { headers: { "retry-after": "Wed, 01 Jan 2025 00:00:42 GMT" } }),
      expected: {
        type: "rate_limited",
        status: 429,
        message: "The gateway rate-limited the call (HTTP 429: Slow down); retry after 42 s.",
        details: { retryAfterSeconds: 42 },
      },
    },
    {
      name: "429 without Retry-After → rate_limited",
      reply: errorReply(429, "Slow down"),
      expected: {
        type: "rate_limited",
        status: 429,
        message: "The gateway rate-limited the call (HTTP 429: Slow down); retry later.",
        details: {},
      },
    },
    {
      name: "404 → model_not_found",
      reply: errorReply(404, "The model `gpt-test` does not exist", { code: "model_not_found" }),
      expected: {
        type: "model_not_found",
        status: 404,
        message:
          'The gateway does not know model "gpt-test" (HTTP 404 [model_not_found]: The model `gpt-test` does not exist); check the model id, and that the gateway URL includes any /v1 prefix the gateway needs.',
        details: {},
      },
    },
    {
      name: "another 4xx → gateway_error with the gateway's message",
      reply: errorReply(400, "max_tokens is too large"),
      expected: {
        type: "gateway_error",
        status: 502,
        message: "The gateway rejected the call (HTTP 400: max_tokens is too large).",
        details: {},
      },
    },
    {
      name: "a 200 carrying a quota error → insufficient_quota",
      reply: jsonReply({ error: { message: "out of credits", code: "insufficient_quota" } }),
      expected: {
        type: "insufficient_quota",
        status: 402,
        message:
          "The gateway reports exhausted credits or quota (HTTP 200 [insufficient_quota]: out of credits).",
        details: {},
      },
    },
    {
      name: "a 200 carrying another error → gateway_error",
      reply: jsonReply({ error: { message: "content filter tripped", type: "invalid_request_error" } }),
      expected: {
        type: "gateway_error",
        status: 502,
        message: "The gateway answered with an error (HTTP 200: content filter tripped).",
        details: {},
      },
    },
    {
      name: "a redirect → gateway_error, not followed",
      reply: jsonReply({}, { status: 307, headers: { location: "http://127.0.0.1:9/v1/chat/completions" } }),
      expected: {
        type: "gateway_error",
        status: 502,
        message:
          "The gateway redirected the call (HTTP 307) to http://127.0.0.1:9/v1/chat/completions; set the gateway URL to the final address.",
        details: {},
      },
    },
  ])("$name, without retrying", async ({ reply, expected }) => {
    upstream.script(() => reply);
    const client = gateway({ now: () => Date.parse("2025-01-01T00:00:00Z") });
    expect(await failure(client.generate(request({ apiKey: "sk-abcdef123456" })))).toEqual(expected);
    expect(upstream.calls.length).toBe(1);
    expect(delays).toEqual([]);
  });

  it("masks the key that was sent even when it does not look like one", async () => {
    upstream.script(() => errorReply(401, "key short-key-1 is unknown"));
    const { message } = await failure(gateway().generate(request({ apiKey: "short-key-1" })));
    expect(message).toBe("The gateway refused the API key (HTTP 401: key *** is unknown).");
  });
});

describe("createOpenAIChatGateway: transient failures", () => {
  it.each<{ name: string; reply: () => ScriptedReply; last: string }>([
    {
      name: "500",
      reply: () => errorReply(500, "boom", { type: "server_error" }),
      last: "answered HTTP 500: boom",
    },
    { name: "502 HTML page", reply: () => htmlReply(502), last: "answered HTTP 502: an HTML error page" },
    { name: "503", reply: () => errorReply(503, "overloaded"), last: "answered HTTP 503: overloaded" },
    {
      name: "invalid JSON",
      reply: () => textReply('{"choices": [{"mess'),
      last: "answered a body that is not JSON (HTTP 200)",
    },
    {
      name: "an HTML page with 200",
      reply: () => textReply("<html>maintenance</html>", { contentType: "text/html" }),
      last: "answered an HTML page instead of JSON (HTTP 200)",
    },
    {
      name: "JSON without choices",
      reply: () => jsonReply({ id: "x" }),
      last: "answered JSON without choices (HTTP 200)",
    },
    { name: "a reset before the answer", reply: () => resetReply(), last: "could not be reached" },
    {
      name: "a reset mid-body",
      reply: () => resetReply({ partialBody: '{"choices": [{"message": {"content": "' }),
      last: "broke off its answer (HTTP 200",
    },
  ])("$name: retried twice with backoff, then gateway_error", async ({ reply, last }) => {
    upstream.script(reply);
    const error = await failure(gateway().generate(request()));
    expect(error).toMatchObject({ type: "gateway_error", status: 502, details: {} });
    expect(error.message).toContain(`The model gateway failed 3 times; the last time it ${last}`);
    expect(upstream.calls.length).toBe(3);
    expect(delays).toEqual([150, 300]);
  });

  it("tells the request of each retry, with the gateway's name", async () => {
    upstream.script.replyWith([errorReply(503, "busy"), resetReply(), completion("ok")]);
    const retries: string[] = [];
    const client = gateway({ name: "primary" });
    await client.generate(request({ onRetry: (name) => retries.push(name) }));
    expect(retries).toEqual(["primary", "primary"]);
  });

  it("succeeds when a retry works", async () => {
    upstream.script.replyWith([errorReply(503, "busy"), resetReply(), completion("ok")]);
    expect((await gateway().generate(request())).content).toBe("ok");
    expect(upstream.calls.length).toBe(3);
  });

  it("honours maxRetries", async () => {
    upstream.script(() => errorReply(500, "boom"));
    expect((await failure(gateway({ maxRetries: 0 }).generate(request()))).message).toBe(
      "The model gateway failed once; the last time it answered HTTP 500: boom.",
    );
    expect(upstream.calls.length).toBe(1);
  });

  it("retries a refused connection, then reports it", async () => {
    const closed = await startScriptedGateway();
    await closed.close();
    let fetches = 0;
    const countingFetch: typeof fetch = (input, init) => {
      fetches += 1;
      return fetch(input, init);
    };
    const error = await failure(gateway({ baseURL: closed.url, fetch: countingFetch }).generate(request()));
    expect(error.type).toBe("gateway_error");
    expect(error.message).toMatch(
      /^The model gateway failed 3 times; the last time it could not be reached \(.*ECONNREFUSED/,
    );
    expect(fetches).toBe(3);
  });

  it("uses the real backoff timer when no sleep is injected", async () => {
    upstream.script.replyWith([errorReply(500, "boom")]);
    const client = createOpenAIChatGateway({ baseURL: upstream.url, timeoutMs: 2000, retryBaseMs: 10 });
    expect((await client.generate(request())).content).toBe('{"claims": []}');
  });
});

describe("createOpenAIChatGateway: answers that are not errors", () => {
  it("returns truncated output (finish_reason length) as it is", async () => {
    upstream.script(() => completion('{"claims": [{"claim": "Reven', { finishReason: "length" }));
    expect(await gateway().generate(request())).toEqual({
      content: '{"claims": [{"claim": "Reven',
      usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
    });
  });

  it("returns empty content as an empty string, with zero usage when none is reported", async () => {
    upstream.script(() => completion("", { usage: null }));
    expect(await gateway().generate(request())).toEqual({
      content: "",
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    });
    expect(upstream.calls.length).toBe(1);
  });
});

describe("createOpenAIChatGateway: deadlines, aborts and size", () => {
  it("times out a gateway that never answers, and closes the socket", async () => {
    // It never answers: only the deadline can end the call.
    upstream.script(() => hangReply());
    expect(await failure(gateway({ timeoutMs: 300 }).generate(request()))).toEqual({
      type: "gateway_timeout",
      status: 504,
      message: "The model gateway did not answer within 300 ms.",
      details: {},
    });
    expect(upstream.calls.length).toBe(1);
    await upstream.waitForClientClose(0);
  });

  it("times out a body trickled slower than the deadline", async () => {
    // The whole body takes over 6 s (one byte every 40 ms): a deadline that stopped at the headers would let
    // it complete as an answer.
    upstream.script(() => trickleReply(undefined, { intervalMs: 40 }));
    expect((await failure(gateway({ timeoutMs: 300 }).generate(request()))).type).toBe("gateway_timeout");
    await upstream.waitForClientClose(0);
  });

  it("counts backoff against the deadline", async () => {
    upstream.script(() => errorReply(500, "boom"));
    const waitForAbort = (_ms: number, signal: AbortSignal) =>
      new Promise<void>((_resolve, reject) =>
        signal.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    expect((await failure(gateway({ timeoutMs: 200, sleep: waitForAbort }).generate(request()))).type).toBe(
      "gateway_timeout",
    );
    expect(upstream.calls.length).toBe(1);
  });

  it("serves the next call normally after a timeout", async () => {
    upstream.script.replyWith([hangReply()]);
    const client = gateway({ timeoutMs: 300 });
    await failure(client.generate(request()));
    expect((await client.generate(request())).content).toBe('{"claims": []}');
  });

  it.each([
    { name: "chunked", contentLength: false },
    { name: "with a Content-Length", contentLength: true },
  ])("refuses a 20 MB body ($name) without retrying, and closes the socket", async ({ contentLength }) => {
    upstream.script(() => hugeReply(20_000_000, { contentLength }));
    expect(await failure(gateway().generate(request()))).toEqual({
      type: "gateway_error",
      status: 502,
      message: "The gateway's response is larger than 8 MiB, the most the service reads; it was refused.",
      details: {},
    });
    expect(upstream.calls.length).toBe(1);
    await upstream.waitForClientClose(0);
  });

  it("accepts a body right at a small limit and refuses one byte more", async () => {
    upstream.script(() => hugeReply(1000));
    expect((await gateway({ maxResponseBytes: 1000 }).generate(request())).content).toMatch(/^a{700,}$/);
    expect((await failure(gateway({ maxResponseBytes: 999 }).generate(request()))).message).toBe(
      "The gateway's response is larger than 999 bytes, the most the service reads; it was refused.",
    );
  });

  it("aborts the upstream call when the caller aborts, rejecting with the caller's reason", async () => {
    upstream.script(() => hangReply());
    const controller = new AbortController();
    const pending = gateway().generate(request({ signal: controller.signal }));
    await upstream.waitForCalls(1);
    const reason = new Error("caller went away");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(await upstream.waitForClientClose(0)).toMatchObject({ closedByClient: true });
  });

  it("rejects with an AbortError when the caller aborts without a reason", async () => {
    upstream.script(() => trickleReply(undefined, { intervalMs: 20 }));
    const controller = new AbortController();
    const pending = gateway().generate(request({ signal: controller.signal }));
    await upstream.waitForCalls(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await upstream.waitForClientClose(0);
  });

  it("makes no call when the caller has already aborted", async () => {
    await expect(gateway().generate(request({ signal: AbortSignal.abort() }))).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(upstream.calls).toEqual([]);
  });

  it("leaves no timer behind after success, failure or timeout", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
    const before = timers();
    upstream.script.replyWith([completion("ok"), errorReply(401, "no"), hangReply()]);
    const client = gateway({ timeoutMs: 200 });
    await client.generate(request());
    await failure(client.generate(request()));
    await failure(client.generate(request()));
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
