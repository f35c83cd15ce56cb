import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { type ErrorType, errorRegistry } from "../errors/error-registry.js";
import {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  RateLimitError,
  TimeoutError,
  UngroundedError,
  UserAbortError,
  VerifiedError,
} from "./errors.js";
import type { ExtractField, Range } from "./types.js";
import { Verified, type VerifiedOptions } from "./verified.js";

/** What the scripted server saw. */
interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the scripted server answers. */
interface ScriptedResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Never answer: only the client's timeout or abort ends the request. */
  hang?: true;
}

let server: Server;
let baseURL: string;
let requests: RecordedRequest[] = [];
let script: (request: RecordedRequest) => ScriptedResponse = () => ({ status: 500, body: "no script" });

beforeAll(async () => {
  server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const request: RecordedRequest = {
        method: incoming.method ?? "",
        path: incoming.url ?? "",
        headers: incoming.headers,
        body: text === "" ? undefined : JSON.parse(text),
      };
      requests.push(request);
      const response = script(request);
      const send = () => {
        if (outgoing.destroyed) return;
        outgoing.writeHead(response.status, { "content-type": "application/json", ...response.headers });
        outgoing.end(typeof response.body === "string" ? response.body : JSON.stringify(response.body));
      };
      if (response.hang) return;
      if (response.delayMs === undefined) send();
      else setTimeout(send, response.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  requests = [];
});

/** A client on the scripted server that records its retry waits instead of sleeping. */
function client(options: VerifiedOptions = {}) {
  const waits: number[] = [];
  const verified = new Verified({
    apiKey: "test-key",
    baseURL,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { verified, waits };
}

const errorBody = (type: string, message = `a ${type} error`, extra: Record<string, unknown> = {}) => ({
  error: { type, code: type, message, ...extra },
});

const sources = [{ id: "report_q3", text: "Revenue in Q3 was 12.5 million. Profit was 2 million." }];
const messages = [{ role: "user" as const, content: "What was Q3 revenue? Answer in camelCase: maxTokens." }];

describe("create", () => {
  it("POSTs snake_case to /v1/verified with the bearer key and returns camelCase", async () => {
    const wireResult = {
      id: "vfd_abc",
      model: "local",
      text: "Revenue in Q3 was 12.5 million [report_q3].",
      citations: [
        {
          claim: "Revenue in Q3 was 12.5 million",
          quote: "Revenue in Q3 was 12.5 million",
          source: "report_q3",
          range: [0, 30],
        },
      ],
      unsupported: [{ claim: "Profit doubled", reason: "quote_not_found" }],
      coverage: 0.5,
      abstained: false,
      grounded: true,
      usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, model_calls: 2 },
    };
    script = () => ({ status: 200, body: wireResult });
    const { verified } = client();

    const result = await verified.create({
      model: "local",
      messages,
      sources,
      mode: "lenient",
      checkNumbers: "row",
      minCoverage: 0.5,
      retry: 1,
      allowUngrounded: false,
      temperature: 0,
      maxTokens: 512,
    });

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/verified");
    expect(request?.headers.authorization).toBe("Bearer test-key");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toEqual({
      model: "local",
      messages,
      sources,
      mode: "lenient",
      check_numbers: "row",
      min_coverage: 0.5,
      retry: 1,
      allow_ungrounded: false,
      temperature: 0,
      max_tokens: 512,
    });
    expect(result).toEqual({
      ...wireResult,
      usage: { promptTokens: 120, completionTokens: 30, totalTokens: 150, modelCalls: 2 },
    });
    expectTypeOf(result.citations[0]?.range).toEqualTypeOf<Range | undefined>();
    expectTypeOf(result.usage.modelCalls).toEqualTypeOf<number>();
  });

  it("sends only the fields given", async () => {
    script = () => ({ status: 200, body: {} });
    await client().verified.create({ model: "local", messages, sources });
    expect(requests[0]?.body).toEqual({ model: "local", messages, sources });
  });
});

describe("extract", () => {
  it("keeps the schema's field names both ways and types the result by them", async () => {
    const wireResult = {
      id: "ext_1",
      model: "local",
      fields: {
        q3Revenue: { value: "12.5 million", source: "report_q3", range: [18, 30], grounded: true },
        net_profit: { value: null, grounded: false, reason: "not_found" },
      },
      coverage: 0.5,
      usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60, model_calls: 1 },
    };
    script = () => ({ status: 200, body: wireResult });
    const schema = { q3Revenue: "Revenue in Q3", net_profit: "Net profit" };

    const result = await client().verified.extract({ model: "local", sources, schema });

    expect(requests[0]?.path).toBe("/v1/verified/extract");
    expect(requests[0]?.body).toEqual({ model: "local", sources, schema });
    expect(result).toEqual({
      ...wireResult,
      usage: { promptTokens: 50, completionTokens: 10, totalTokens: 60, modelCalls: 1 },
    });
    expectTypeOf(result.fields).toEqualTypeOf<{ q3Revenue: ExtractField; net_profit: ExtractField }>();
    const revenue = result.fields.q3Revenue;
    if (revenue.grounded) expectTypeOf(revenue.range).toEqualTypeOf<Range>();
  });
});

describe("eval", () => {
  it("POSTs the cases and options in snake_case and returns camelCase aggregates", async () => {
    const wireResult = {
      aggregate: { coverage_mean: 0.5, unsupported_rate: 0.5, n: 2, errored: 1 },
      cases: [
        { coverage: 0.5, citations: 1, unsupported: 1 },
        { error: { type: "extraction_failed", code: "extraction_failed", message: "unusable output" } },
      ],
      usage: { total_tokens: 300, model_calls: 4 },
    };
    script = () => ({ status: 200, body: wireResult });
    const cases = [
      { messages, sources },
      { messages, sources },
    ];

    const result = await client().verified.eval({
      model: "local",
      mode: "strict",
      cases,
      checkNumbers: true,
      retry: 2,
      minCoverage: 0.8,
    });

    expect(requests[0]?.path).toBe("/v1/verified/eval");
    expect(requests[0]?.body).toEqual({
      model: "local",
      mode: "strict",
      cases,
      check_numbers: true,
      retry: 2,
      min_coverage: 0.8,
    });
    expect(result).toEqual({
      aggregate: { coverageMean: 0.5, unsupportedRate: 0.5, n: 2, errored: 1 },
      cases: wireResult.cases,
      usage: { totalTokens: 300, modelCalls: 4 },
    });
  });
});

describe("check", () => {
  it("POSTs claims to /v1/verified/check and returns the verdicts", async () => {
    const wireResult = {
      text: "Revenue in Q3 was 12.5 million [report_q3].",
      citations: [
        { claim: "Q3 revenue", quote: "Revenue in Q3 was 12.5 million", source: "report_q3", range: [0, 30] },
      ],
      unsupported: [{ claim: "Q3 profit was 3 million", reason: "number_not_found" }],
      coverage: 0.5,
      usage: { model_calls: 0, total_tokens: 0 },
    };
    script = () => ({ status: 200, body: wireResult });
    const claims = [
      { claim: "Q3 revenue", quote: "Revenue in Q3 was 12.5 million", source: "report_q3" },
      { claim: "Q3 profit was 3 million", quote: "Profit was 2 million", source: "report_q3" },
    ];

    const result = await client().verified.check({ sources, claims, mode: "strict", checkNumbers: "source" });

    expect(requests[0]?.path).toBe("/v1/verified/check");
    expect(requests[0]?.body).toEqual({ sources, claims, mode: "strict", check_numbers: "source" });
    expect(result).toEqual({ ...wireResult, usage: { modelCalls: 0, totalTokens: 0 } });
  });
});

describe("listModels", () => {
  it("GETs /v1/models with the key and no body, and returns the list", async () => {
    const wireResult = {
      models: [
        { id: "local", match: "exact", gateway: null },
        { id: "ollama/*", match: "prefix", gateway: "ollama" },
      ],
    };
    script = () => ({ status: 200, body: wireResult });

    const result = await client().verified.listModels();

    expect(requests[0]?.method).toBe("GET");
    expect(requests[0]?.path).toBe("/v1/models");
    expect(requests[0]?.body).toBeUndefined();
    expect(requests[0]?.headers.authorization).toBe("Bearer test-key");
    expect(requests[0]?.headers["content-type"]).toBeUndefined();
    expect(result).toEqual(wireResult);
  });

  it("rejects with the typed error of the answer", async () => {
    script = () => ({ status: 401, body: errorBody("invalid_key") });
    await expect(client().verified.listModels()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe("configuration", () => {
  it("reads VERIFIED_API_KEY when no apiKey is given", async () => {
    script = () => ({ status: 200, body: {} });
    const saved = process.env.VERIFIED_API_KEY;
    process.env.VERIFIED_API_KEY = "from-environment";
    try {
      await new Verified({ baseURL }).check({ sources, claims: [] });
    } finally {
      if (saved === undefined) delete process.env.VERIFIED_API_KEY;
      else process.env.VERIFIED_API_KEY = saved;
    }
    expect(requests[0]?.headers.authorization).toBe("Bearer from-environment");
  });

  it("reads VERIFIED_BASE_URL when no baseURL is given, and an explicit baseURL wins over it", async () => {
    script = () => ({ status: 200, body: {} });
    const saved = process.env.VERIFIED_BASE_URL;
    process.env.VERIFIED_BASE_URL = `${baseURL}/prefix/`;
    try {
      const fromEnvironment = new Verified({ apiKey: "k" });
      expect(fromEnvironment.baseURL).toBe(`${baseURL}/prefix`);
      await fromEnvironment.check({ sources, claims: [] });
      expect(new Verified({ apiKey: "k", baseURL: "http://example.test" }).baseURL).toBe(
        "http://example.test",
      );
      process.env.VERIFIED_BASE_URL = " ";
      expect(new Verified({ apiKey: "k" }).baseURL).toBe("http://127.0.0.1:8787");
    } finally {
      if (saved === undefined) delete process.env.VERIFIED_BASE_URL;
      else process.env.VERIFIED_BASE_URL = saved;
    }
    expect(requests.map((request) => request.path)).toEqual(["/prefix/v1/verified/check"]);
  });

  it("sends no Authorization header without a key, and says so in the 401", async () => {
    script = () => ({ status: 401, body: errorBody("invalid_key", "The API key is missing or not valid.") });
    const saved = process.env.VERIFIED_API_KEY;
    delete process.env.VERIFIED_API_KEY;
    try {
      const error = await new Verified({ baseURL }).check({ sources, claims: [] }).catch((caught) => caught);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.message).toBe(
        "The API key is missing or not valid. No API key was sent: pass `apiKey` to `new Verified()` or set VERIFIED_API_KEY.",
      );
    } finally {
      if (saved !== undefined) process.env.VERIFIED_API_KEY = saved;
    }
    expect(requests[0]?.headers.authorization).toBeUndefined();
  });

  it("has the documented defaults", () => {
    const verified = new Verified({ apiKey: "k" });
    expect({ baseURL: verified.baseURL, timeout: verified.timeout, maxRetries: verified.maxRetries }).toEqual(
      {
        baseURL: "http://127.0.0.1:8787",
        timeout: 60_000,
        maxRetries: 2,
      },
    );
  });

  it("joins a baseURL with a path prefix and trailing slash", async () => {
    const seen: string[] = [];
    const verified = new Verified({
      apiKey: "k",
      baseURL: "https://example.test/verified/",
      fetch: async (url) => {
        seen.push(url);
        return new Response("{}", { status: 200 });
      },
    });
    await verified.create({ model: "local", messages, sources });
    expect(seen).toEqual(["https://example.test/verified/v1/verified"]);
  });

  it("uses an injected fetch for the whole exchange", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const verified = new Verified({
      apiKey: "k",
      fetch: async (url, init) => {
        calls.push({ url, init });
        return new Response(JSON.stringify({ usage: { model_calls: 0, total_tokens: 0 } }), { status: 200 });
      },
    });
    const result = await verified.check({ sources, claims: [], checkNumbers: true });
    expect(result).toEqual({ usage: { modelCalls: 0, totalTokens: 0 } });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("http://127.0.0.1:8787/v1/verified/check");
    expect(calls[0]?.init.method).toBe("POST");
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ sources, claims: [], check_numbers: true });
  });

  it("rejects a 200 whose body is not JSON", async () => {
    script = () => ({ status: 200, body: "<html>proxy</html>" });
    const error = await client()
      .verified.check({ sources, claims: [] })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(VerifiedError);
    expect({ type: error.type, status: error.status }).toEqual({ type: "invalid_response", status: 200 });
  });
});

describe("errors from real HTTP responses", () => {
  const rows = Object.entries(errorRegistry) as [ErrorType, { status: number; message: string }][];

  it.each(rows)("%s arrives as its typed error, whole", async (type, { status, message }) => {
    script = () => ({ status, body: errorBody(type, message, { param: "sources" }) });
    const error = await client({ maxRetries: 0 })
      .verified.create({ model: "local", messages, sources })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(VerifiedError);
    expect({
      name: error.name,
      type: error.type,
      status: error.status,
      message: error.message,
      param: error.param,
    }).toEqual({ name: error.constructor.name, type, status, message, param: "sources" });
    expect(error.constructor).not.toBe(VerifiedError);
  });

  it("422 ungrounded carries the unsupported claims", async () => {
    const unsupported = [
      { claim: "The moon is made of cheese", reason: "quote_not_found" },
      { claim: "See the atlas", reason: "unknown_source" },
    ];
    script = () => ({
      status: 422,
      body: errorBody("ungrounded", "Nothing could be grounded.", { unsupported }),
    });
    const error = await client()
      .verified.create({ model: "local", messages, sources })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(UngroundedError);
    expect(error.unsupported).toEqual(unsupported);
    expect(requests).toHaveLength(1);
  });
});

describe("retries", () => {
  it("retries a 429 after its Retry-After, then succeeds", async () => {
    let attempt = 0;
    script = () => {
      attempt += 1;
      return attempt <= 2
        ? { status: 429, body: errorBody("rate_limited"), headers: { "retry-after": "3" } }
        : { status: 200, body: { coverage: 1 } };
    };
    const { verified, waits } = client();
    await expect(verified.check({ sources, claims: [] })).resolves.toEqual({ coverage: 1 });
    expect(requests).toHaveLength(3);
    expect(waits).toEqual([3000, 3000]);
  });

  it("gives up after maxRetries with the RateLimitError and its retryAfter", async () => {
    script = () => ({ status: 429, body: errorBody("rate_limited"), headers: { "retry-after": "1" } });
    const { verified, waits } = client({ maxRetries: 3 });
    const error = await verified.check({ sources, claims: [] }).catch((caught) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBe(1);
    expect(requests).toHaveLength(4);
    expect(waits).toEqual([1000, 1000, 1000]);
  });

  it("backs off exponentially with jitter on 5xx", async () => {
    script = () => ({ status: 502, body: errorBody("gateway_error") });
    const { verified, waits } = client({ maxRetries: 2 });
    await expect(verified.check({ sources, claims: [] })).rejects.toBeInstanceOf(GatewayError);
    expect(requests).toHaveLength(3);
    // random() = 0.5 → 75% of each step (500 ms, 1000 ms).
    expect(waits).toEqual([375, 750]);
  });

  it("honours a per-call maxRetries", async () => {
    script = () => ({ status: 503, body: "" });
    const { verified } = client({ maxRetries: 5 });
    await expect(verified.check({ sources, claims: [] }, { maxRetries: 1 })).rejects.toBeInstanceOf(
      VerifiedError,
    );
    expect(requests).toHaveLength(2);
  });

  it.each([
    [400, "invalid_request"],
    [401, "invalid_key"],
    [402, "insufficient_quota"],
    [404, "model_not_found"],
    [422, "ungrounded"],
  ])("never retries a %i", async (status, type) => {
    script = () => ({ status, body: errorBody(type) });
    const { verified, waits } = client();
    await expect(verified.create({ model: "m", messages, sources })).rejects.toBeInstanceOf(VerifiedError);
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("retries network errors and then reports a status-0 ConnectionError", async () => {
    let calls = 0;
    const { verified, waits } = client({
      baseURL: "http://127.0.0.1:9", // discard port: nothing listens
      fetch: (url, init) => {
        calls += 1;
        return globalThis.fetch(url, init);
      },
    });
    const error = await verified.check({ sources, claims: [] }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect({ type: error.type, status: error.status }).toEqual({ type: "connection_error", status: 0 });
    expect(error.message).toMatch(/^Could not reach the service at http:\/\/127\.0\.0\.1:9: /);
    expect(calls).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it("never prints the base URL's user and password in a connection error", async () => {
    // fetch refuses a URL with credentials, so the message is the one a person sees when they put a key there.
    const { verified } = client({ baseURL: "http://admin:s3cret-pass@127.0.0.1:9", maxRetries: 0 });
    const error = await verified.check({ sources, claims: [] }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/^Could not reach the service at http:\/\/\*\*\*@127\.0\.0\.1:9: /);
    expect(error.message).not.toContain("s3cret");
    const streamed = await (async () => {
      for await (const _event of verified.stream({ model: "local", messages: [], sources })) break;
    })().catch((caught) => caught);
    expect(streamed).toBeInstanceOf(ConnectionError);
    expect(streamed.message).not.toContain("s3cret");
    expect(streamed.message).toContain("***@127.0.0.1:9");
  });
});

describe("timeout and abort", () => {
  it("times out an attempt as a status-0 TimeoutError, retried like a network error", async () => {
    // The server never answers: only the client's timeout can end each attempt.
    script = () => ({ status: 200, body: {}, hang: true });
    const { verified, waits } = client({ timeout: 100, maxRetries: 1 });
    const error = await verified.check({ sources, claims: [] }).catch((caught) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect({ type: error.type, status: error.status, message: error.message }).toEqual({
      type: "timeout",
      status: 0,
      message: "POST /v1/verified/check did not complete within 100 ms; raise `timeout` for long runs.",
    });
    expect(requests).toHaveLength(2);
    expect(waits).toEqual([375]); // one backoff, jitter 0.5, between the two attempts
  });

  it("honours a per-call timeout", async () => {
    script = () => ({ status: 200, body: {}, hang: true });
    const { verified } = client({ maxRetries: 0 });
    await expect(verified.check({ sources, claims: [] }, { timeout: 50 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });

  it("aborts a call in flight as a status-0 UserAbortError, not retried", async () => {
    const controller = new AbortController();
    // Aborted once the request has reached the server, which never answers it.
    script = () => {
      controller.abort(new Error("user went away"));
      return { status: 200, body: {}, hang: true };
    };
    const { verified, waits } = client();
    const error = await verified
      .create({ model: "local", messages, sources }, { signal: controller.signal })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(UserAbortError);
    expect({ type: error.type, status: error.status }).toEqual({ type: "aborted", status: 0 });
    expect(error.cause).toEqual(new Error("user went away"));
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const { verified } = client();
    await expect(
      verified.check({ sources, claims: [] }, { signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(UserAbortError);
    expect(requests).toHaveLength(0);
  });

  it("ends a Retry-After wait when the signal aborts", async () => {
    script = () => ({ status: 429, body: errorBody("rate_limited"), headers: { "retry-after": "30" } });
    const controller = new AbortController();
    const waits: number[] = [];
    // A sleep that ends only when its signal aborts (the real one's abort is tested in post-json.test.ts),
    // and that aborts the caller's signal as the wait begins.
    const sleepUntilAborted = (ms: number, signal?: AbortSignal) => {
      waits.push(ms);
      if (signal === undefined) return Promise.reject(new Error("the wait was given no signal"));
      const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
      controller.abort();
      return aborted;
    };
    const verified = new Verified({ apiKey: "k", baseURL, sleep: sleepUntilAborted });
    await expect(
      verified.check({ sources, claims: [] }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(UserAbortError);
    expect(waits).toEqual([30_000]);
    expect(requests).toHaveLength(1);
  });
});
