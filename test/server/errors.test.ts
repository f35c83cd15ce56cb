import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { errorReply } from "../support/scripted-gateway.js";
import { chatBody, claimsContent, question, report, startWithGateway } from "./harness.js";

// The rows of the error table about the request itself, each as a whole error body; the gateway's rows are
// in gateway-errors.test.ts.

const createBody = { model: "gpt-test", messages: question, sources: [report] };
const extractBody = { model: "gpt-test", sources: [report], schema: { city: "The city it was founded in" } };

const error = (type: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { type, code: type, message, request_id: expect.any(String), ...extra },
});

describe("400 invalid_request", () => {
  it.each<{ name: string; path?: string; body: unknown; message: string; param?: string }>([
    {
      name: "a body that is not JSON",
      body: "{not json",
      message: "The body is not valid JSON.",
    },
    {
      name: "a `__proto__` key",
      body: '{"__proto__": {"admin": true}, "model": "m"}',
      message: 'The body holds a "__proto__" key, which is not allowed (it could pollute object prototypes).',
    },
    { name: "an empty body", body: "", message: "The body is empty; send a JSON object." },
    { name: "a JSON array", body: [createBody], message: '"body" must be an object; got an array.' },
    {
      name: "a required field missing",
      body: { messages: question, sources: [report] },
      message: '"model" is required.',
      param: "model",
    },
    {
      name: "a wrong type",
      body: { ...createBody, model: 5 },
      message: '"model" must be a string; got 5.',
      param: "model",
    },
    {
      name: "a wrong enum value",
      body: { ...createBody, mode: "fuzzy" },
      message: '"mode" must be one of "strict", "lenient"; got "fuzzy".',
      param: "mode",
    },
    {
      name: "a wrong check_numbers value",
      body: { ...createBody, check_numbers: "cell" },
      message: '"check_numbers" must be one of true, false, "source", "row", "quote"; got "cell".',
      param: "check_numbers",
    },
    {
      name: "a wrong role deep inside",
      body: { ...createBody, messages: [{ role: "tool", content: "x" }] },
      message: '"messages[0].role" must be one of "system", "user", "assistant"; got "tool".',
      param: "messages[0].role",
    },
    {
      name: "no messages",
      body: { ...createBody, messages: [] },
      message: '"messages" must hold at least 1 item.',
      param: "messages",
    },
    {
      name: "retry out of range",
      body: { ...createBody, retry: 9 },
      message: '"retry" must be between 0 and 5; got 9.',
      param: "retry",
    },
    {
      name: "min_coverage out of range",
      body: { ...createBody, min_coverage: 2 },
      message: '"min_coverage" must be between 0 and 1; got 2.',
      param: "min_coverage",
    },
    {
      name: "an unknown camelCase field names its snake_case spelling",
      body: { ...createBody, maxTokens: 50 },
      message: '"maxTokens" is not a known field; did you mean "max_tokens"?',
      param: "maxTokens",
    },
    {
      name: "an unknown field lists the known ones",
      body: { ...createBody, top_p: 0.9 },
      message:
        '"top_p" is not a known field. Known fields: model, messages, sources, mode, min_coverage, retry, check_numbers, explain, offsets, allow_ungrounded, answer_format, partial, temperature, max_tokens, stream.',
      param: "top_p",
    },
    {
      name: "duplicate source ids",
      body: { ...createBody, sources: [report, { ...report, text: "other" }] },
      message: '"sources[1].id" repeats an earlier source id; ids must be unique.',
      param: "sources[1].id",
    },
    {
      name: "an empty source id",
      body: { ...createBody, sources: [{ id: "", text: "x" }] },
      message: '"sources[0].id" must not be empty.',
      param: "sources[0].id",
    },
    {
      name: "empty eval cases",
      path: "/v1/verified/eval",
      body: { model: "gpt-test", cases: [] },
      message: '"cases" must hold at least 1 item.',
      param: "cases",
    },
    {
      name: "duplicate source ids in an eval case",
      path: "/v1/verified/eval",
      body: { model: "gpt-test", cases: [{ messages: question, sources: [report, report] }] },
      message: '"cases[0].sources[1].id" repeats an earlier source id; ids must be unique.',
      param: "cases[0].sources[1].id",
    },
    {
      name: "an extract schema with no fields",
      path: "/v1/verified/extract",
      body: { ...extractBody, schema: {} },
      message: '"schema" must have 1 to 100 fields; got 0.',
      param: "schema",
    },
    {
      name: "an extract schema with 101 fields",
      path: "/v1/verified/extract",
      body: {
        ...extractBody,
        schema: Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`field${index}`, "x"])),
      },
      message: '"schema" must have 1 to 100 fields; got 101.',
      param: "schema",
    },
    {
      name: "an empty field description",
      path: "/v1/verified/extract",
      body: { ...extractBody, schema: { city: "" } },
      message: '"schema.city" must not be empty.',
      param: "schema.city",
    },
    {
      name: "a check claim without a quote",
      path: "/v1/verified/check",
      body: { sources: [report], claims: [{ source: "report" }] },
      message: '"claims[0].quote" is required.',
      param: "claims[0].quote",
    },
  ])("$name", async ({ path = "/v1/verified", body, message, param }) => {
    const { gateway, service } = await startWithGateway();

    const response = await service.post(path, body);

    expect(response.status).toBe(400);
    expect(response.body).toEqual(error("invalid_request", message, param === undefined ? {} : { param }));
    expect(gateway.calls).toHaveLength(0);
  });
});

describe("400 invalid_request for a body that is not UTF-8", () => {
  it("names the offset of the first bad byte, on check as on create, before the body is decoded", async () => {
    const { service } = await startWithGateway();
    // A Latin-1 é (0xe9) inside a source's text: decoded, it would become U+FFFD and shift utf8 ranges.
    const head = Buffer.from('{"sources": [{"id": "a", "text": "caf');
    const body = Buffer.concat([
      head,
      Buffer.from([0xe9]),
      Buffer.from(' au lait."}], "answer": "Coffee [a]."}'),
    ]);
    for (const path of ["/v1/verified/check", "/v1/verified"]) {
      const response = await fetch(`${service.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer test-key" },
        body,
      });
      expect(response.status).toBe(400);
      const { error } = await response.json();
      expect(error.type).toBe("invalid_request");
      expect(error.message).toBe(
        `The body is not valid UTF-8: the byte at offset ${head.length} (0xe9) does not belong to a UTF-8 character. Send the body as UTF-8.`,
      );
    }
  });
});

describe("400 no_sources, sources_too_large, too_many_cases", () => {
  it.each([
    { path: "/v1/verified", body: { ...createBody, sources: [] } },
    { path: "/v1/verified/extract", body: { ...extractBody, sources: [] } },
  ])("empty sources on $path is no_sources", async ({ path, body }) => {
    const { gateway, service } = await startWithGateway();

    const response = await service.post(path, body);

    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      error("no_sources", '"sources" is empty; supply at least one source.', { param: "sources" }),
    );
    expect(gateway.calls).toHaveLength(0);
  });

  const overBudget = [
    { id: "a", text: "x".repeat(60_000) },
    { id: "b", text: "y".repeat(40_001) },
  ];
  it.each([
    { path: "/v1/verified", body: { ...createBody, sources: overBudget } },
    { path: "/v1/verified/extract", body: { ...extractBody, sources: overBudget } },
    { path: "/v1/verified/check", body: { sources: overBudget, claims: [] } },
  ])("source text over 100,000 characters on $path is sources_too_large", async ({ path, body }) => {
    const { gateway, service } = await startWithGateway();

    const response = await service.post(path, body);

    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      error(
        "sources_too_large",
        '"sources" totals 100,001 characters; the limit is 100,000. Send fewer or shorter sources.',
        { param: "sources" },
      ),
    );
    expect(gateway.calls).toHaveLength(0);
  });

  it("exactly 100,000 characters is within the budget", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent({ claim: "x", quote: "x", source: "a" })]);

    const response = await service.post("/v1/verified", {
      ...createBody,
      sources: [
        { id: "a", text: "x ".repeat(30_000) },
        { id: "b", text: "y".repeat(40_000) },
      ],
    });

    expect(response.status).toBe(200);
  });

  it("the budget comes from the configuration", async () => {
    const { service } = await startWithGateway({ config: { sourcesBudget: 50 } });

    const response = await service.post("/v1/verified", {
      ...createBody,
      sources: [{ id: "a", text: "z".repeat(51) }],
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      error(
        "sources_too_large",
        '"sources" totals 51 characters; the limit is 50. Send fewer or shorter sources.',
        {
          param: "sources",
        },
      ),
    );
  });

  it("201 eval cases is too_many_cases, even when the cases are otherwise invalid", async () => {
    const { gateway, service } = await startWithGateway();

    for (const testCase of [{ messages: question, sources: [report] }, { nonsense: true }]) {
      const response = await service.post("/v1/verified/eval", {
        model: "gpt-test",
        cases: Array.from({ length: 201 }, () => testCase),
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(
        error(
          "too_many_cases",
          '"cases" holds more than 200 cases; the limit is 200 per request. Page larger datasets (the client\'s evalAll does).',
          { param: "cases" },
        ),
      );
    }
    expect(gateway.calls).toHaveLength(0);
  });

  it("200 eval cases is allowed", async () => {
    const { service } = await startWithGateway();

    const response = await service.post("/v1/verified/eval", {
      model: "local",
      cases: Array.from({ length: 200 }, () => ({ messages: question, sources: [report] })),
    });

    expect(response.status).toBe(200);
    expect(response.body.aggregate.n).toBe(200);
    expect(response.body.cases).toHaveLength(200);
  });
});

describe("401 invalid_key", () => {
  it.each([
    {
      name: "no Authorization header, for a gateway model",
      authorization: undefined,
      message:
        'Model "gpt-test" is called through the model gateway with your API key: send it as "Authorization: Bearer <key>". Model "local" needs no key.',
    },
    {
      name: "another scheme",
      authorization: "Basic dXNlcjpwYXNz",
      message: 'The Authorization header must read "Bearer <key>".',
    },
    {
      name: "Bearer with no key",
      authorization: "Bearer ",
      message: 'The Authorization header must read "Bearer <key>".',
    },
    {
      name: "two words after Bearer",
      authorization: "Bearer one two",
      message: 'The Authorization header must read "Bearer <key>".',
    },
  ])("$name", async ({ authorization, message }) => {
    const { gateway, service } = await startWithGateway();

    const response = await service.post(
      "/v1/verified",
      createBody,
      authorization === undefined ? { key: null } : { key: null, headers: { authorization } },
    );

    expect(response.status).toBe(401);
    expect(response.body).toEqual(error("invalid_key", message));
    expect(gateway.calls).toHaveLength(0);
  });

  it.each([
    {
      status: 401,
      reply: errorReply(401, "Incorrect API key provided: caller-key-planted-7Q.", {
        code: "invalid_api_key",
      }),
      message:
        "The gateway refused the API key (HTTP 401 [invalid_api_key]: Incorrect API key provided: ***).",
    },
    {
      status: 403,
      reply: errorReply(403, "This key may not call gpt-test.", { type: "permission_error" }),
      message: "The gateway refused the API key (HTTP 403: This key may not call gpt-test).",
    },
  ])("the gateway refusing the key with $status, without echoing it", async ({ reply, message }) => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([reply]);

    const response = await service.post("/v1/verified", createBody, { key: "caller-key-planted-7Q" });

    expect(response.status).toBe(401);
    expect(response.body).toEqual(error("invalid_key", message));
    expect(JSON.stringify(response.body)).not.toContain("caller-key-planted-7Q");
    // Not retried: another try cannot fix a key.
    expect(gateway.calls).toHaveLength(1);
  });
});

describe("413, 415, 422, 404, 405", () => {
  const bigMessage = (bytes: number) => [{ role: "user", content: "x".repeat(bytes) }];

  it.each([
    { path: "/v1/verified", limit: "4 MiB", body: { ...createBody, messages: bigMessage(4 * 1024 * 1024) } },
    {
      path: "/v1/verified/extract",
      limit: "4 MiB",
      body: { ...extractBody, schema: { city: "x".repeat(4 * 1024 * 1024) } },
    },
    // The check takes a 4 MiB answer with its sources.
    {
      path: "/v1/verified/check",
      limit: "8 MiB",
      body: { sources: [report], claims: [{ quote: "x".repeat(8 * 1024 * 1024), source: "a" }] },
    },
  ])("a body over $limit on $path is payload_too_large", async ({ path, limit, body }) => {
    const { gateway, service } = await startWithGateway();

    const response = await service.post(path, body);

    expect(response.status).toBe(413);
    expect(response.body).toEqual(
      error("payload_too_large", `The request body is larger than ${limit}, this endpoint's limit.`),
    );
    expect(gateway.calls).toHaveLength(0);
  });

  it("eval accepts a body over 4 MiB", async () => {
    const { gateway, service } = await startWithGateway();

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      cases: [{ messages: bigMessage(5 * 1024 * 1024), sources: [report] }],
    });

    expect(response.status).toBe(200);
    expect(response.body.aggregate).toEqual({ coverage_mean: 0, unsupported_rate: 0, n: 1, errored: 0 });
    expect(gateway.calls).toHaveLength(1);
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])(
    "Content-Type %s is unsupported_media_type",
    async (contentType) => {
      const { service } = await startWithGateway();

      const response = await service.post("/v1/verified", JSON.stringify(createBody), {
        headers: { "content-type": contentType },
      });

      expect(response.status).toBe(415);
      expect(response.body).toEqual(
        error("unsupported_media_type", 'Send the body as JSON with "Content-Type: application/json".'),
      );
    },
  );

  it("application/json with a charset is accepted", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent({ claim: "Lyon", quote: "Lyon", source: "report" })]);

    const response = await service.post("/v1/verified", createBody, {
      headers: { "content-type": "application/json; charset=utf-8" },
    });

    expect(response.status).toBe(200);
  });

  it("an ungroundable question is 422 ungrounded", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent({ claim: "Paris.", quote: "Paris", source: "report" })]);

    const response = await service.post("/v1/verified", createBody);

    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      error(
        "ungrounded",
        'None of the model\'s 1 claims could be grounded in the sources. See "unsupported" for why; set allow_ungrounded for a flagged plain answer.',
        { unsupported: [{ claim: "Paris.", reason: "quote_not_found", quote: "Paris", source: "report" }] },
      ),
    );
  });

  it.each([
    {
      method: "GET",
      path: "/nope",
      status: 404,
      body: error("not_found", "No endpoint at GET /nope. See /openapi.json."),
    },
    {
      method: "POST",
      path: "/v1/verified/stream",
      status: 404,
      body: error("not_found", "No endpoint at POST /v1/verified/stream. See /openapi.json."),
    },
    {
      method: "GET",
      path: "/v1/verified",
      status: 405,
      allow: "POST",
      body: error("method_not_allowed", "/v1/verified accepts POST, not GET."),
    },
    {
      method: "PUT",
      path: "/v1/verified/eval?x=1",
      status: 405,
      allow: "POST",
      body: error("method_not_allowed", "/v1/verified/eval accepts POST, not PUT."),
    },
    {
      method: "DELETE",
      path: "/healthz",
      status: 405,
      allow: "GET, HEAD",
      body: error("method_not_allowed", "/healthz accepts GET, HEAD, not DELETE."),
    },
    {
      method: "POST",
      path: "/metrics",
      status: 405,
      allow: "GET, HEAD",
      body: error("method_not_allowed", "/metrics accepts GET, HEAD, not POST."),
    },
    {
      method: "POST",
      path: "/v1/models",
      status: 405,
      allow: "GET, HEAD",
      body: error("method_not_allowed", "/v1/models accepts GET, HEAD, not POST."),
    },
  ])("$method $path is $status", async ({ method, path, status, allow, body }) => {
    const { service } = await startWithGateway();

    const response = await fetch(`${service.url}${path}`, { method });

    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(body);
    expect(response.headers.get("allow")).toBe(allow ?? null);
  });
});

describe("no input produces a 500", () => {
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom("", "local", "strict", "lenient", "row", "source", -1, 0, 0.5, 1, 201, true, false, null),
  );
  const name = fc.oneof(
    fc.string({ maxLength: 3 }),
    fc.constantFrom("constructor", "toString", "hasOwnProperty"),
  );
  const message = fc.record({
    role: fc.constantFrom("user", "system", "assistant", "tool"),
    content: fc.string({ maxLength: 40 }),
  });
  const source = fc.record({ id: name, text: fc.string({ maxLength: 60 }) });
  const list = <T>(item: fc.Arbitrary<T>) => fc.array(item, { maxLength: 3 });
  const nearlyValid = fc.record(
    {
      model: fc.oneof(fc.constantFrom("local", "gpt-test"), value),
      messages: fc.oneof(list(message), value),
      sources: fc.oneof(list(source), value),
      cases: fc.oneof(list(fc.record({ messages: list(message), sources: list(source) })), value),
      schema: fc.oneof(fc.dictionary(name, fc.string({ maxLength: 10 }), { maxKeys: 3 }), value),
      claims: fc.oneof(
        list(fc.record({ claim: fc.string(), quote: fc.string({ maxLength: 10 }), source: name })),
        value,
      ),
      mode: value,
      retry: value,
      check_numbers: value,
      min_coverage: value,
      allow_ungrounded: value,
      temperature: value,
      max_tokens: value,
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    nearlyValid.map((payload) => JSON.stringify(payload)),
    fc.jsonValue({ maxDepth: 2 }).map((payload) => JSON.stringify(payload)),
    fc.string({ maxLength: 20 }),
  );
  const path = fc.constantFrom(
    "/v1/verified",
    "/v1/verified/extract",
    "/v1/verified/eval",
    "/v1/verified/check",
  );

  it("random and nearly valid bodies on every operation get a 200 or a 4xx with an error body", async () => {
    const { gateway, service } = await startWithGateway();
    // A well-behaved model: claims for create, fields for extract, text for a plain answer.
    gateway.script((call) => {
      const format = chatBody(call).response_format?.json_schema?.name;
      if (format === "verified_fields") return JSON.stringify({ fields: {} });
      if (format === "verified_claims") return claimsContent({ claim: "x", quote: "a", source: "a" });
      return "A plain answer.";
    });

    await fc.assert(
      fc.asyncProperty(path, body, async (target, payload) => {
        const response = await service.post(target, payload);
        expect(response.status === 200 || (response.status >= 400 && response.status < 500)).toBe(true);
        expect(response.body).toBeTypeOf("object");
        if (response.status !== 200) expect(response.body.error.type).toBe(response.body.error.code);
      }),
      { numRuns: 100 },
    );
  });
});
