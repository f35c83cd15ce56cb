import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { createKeyChecker } from "../../src/server/plugins/auth.js";
import {
  claimsContent,
  closeAfterTest,
  report,
  startWithGateway,
  startWithoutGateway,
} from "../server/harness.js";
import {
  errorReply,
  hangReply,
  htmlReply,
  jsonReply,
  type ScriptedAnswer,
  startScriptedGateway,
  textReply,
} from "../support/scripted-gateway.js";
import { expectRegistryError } from "./expect-response.js";
import { waitUntil } from "./process-probes.js";
import { createRawClient, jsonPost, type RawResponse } from "./raw-client.js";

// Who may call what, where the service connects, what it writes down and what it tells people.
// auth-and-keys.test.ts and logs.test.ts cover the ordinary cases; these go after the edges.

const question = [{ role: "user", content: "Where was it founded?" }];
const createBody = { model: "gpt-test", messages: question, sources: [report] };
const lyon = claimsContent({ claim: "Lyon.", quote: "Lyon", source: "report" });

/** A route from `printRoutes`: its full path and methods. */
interface Route {
  path: string;
  methods: string[];
}

/**
 * Reads Fastify's route tree (`printRoutes({ commonPrefix: false })`): each line is a path segment, indented
 * four columns per level under its parent, with its methods in parentheses when it is a route.
 */
function parseRouteTree(tree: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const start = line.search(/[^ │├└─]/);
    if (start < 0) continue;
    const depth = Math.floor(start / 4);
    const match = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(start));
    const segment = match?.[1] ?? "";
    stack.length = depth;
    stack.push(segment);
    if (match?.[2] !== undefined) {
      routes.push({ path: stack.join("").replace(/\/{2,}/g, "/"), methods: match[2].split(", ") });
    }
  }
  return routes;
}

const isPlayground = (path: string) => path === "/" || path === "/index.html" || path.startsWith("/assets/");

describe("with config.apiKeys, nothing but /healthz, /readyz and the playground answers without a listed key", () => {
  const config = { apiKeys: ["listed-key-1", "listed-key-2"], gatewayKey: "gateway-key-0" };

  it("every route, every method, no key or a wrong one: 401 before anything else", async () => {
    const { gateway, service } = await startWithGateway({ config });
    const routes = parseRouteTree(service.app.printRoutes({ commonPrefix: false }));
    const client = createRawClient(service.url);
    closeAfterTest(client);

    // The tree has every operation, and every path of the OpenAPI document.
    const listed = await client.send({
      method: "GET",
      path: "/openapi.json",
      headers: { authorization: "Bearer listed-key-1" },
    });
    const documented = Object.keys(listed.json.paths);
    expect(documented.length).toBeGreaterThanOrEqual(6);
    expect(routes.map((route) => route.path)).toEqual(expect.arrayContaining(documented));

    const refused: string[] = [];
    const open: string[] = [];
    for (const route of routes) {
      for (const method of route.methods) {
        for (const authorization of [
          undefined,
          "Bearer wrong-key",
          "Bearer listed-key-1x",
          "Basic bGlzdGVk",
        ]) {
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (authorization !== undefined) headers.authorization = authorization;
          const response = await client.send({
            method,
            path: route.path,
            headers,
            ...(method === "POST" ? { body: JSON.stringify(createBody) } : {}),
          });
          const name = `${method} ${route.path}`;
          if (route.path === "/healthz" || route.path === "/readyz" || isPlayground(route.path)) {
            expect(response.status, name).toBe(200);
            open.push(name);
          } else {
            expect(response.status, `${name} with ${authorization}`).toBe(401);
            if (method !== "HEAD") expect(response.json.error.type).toBe("invalid_key");
            refused.push(name);
          }
        }
      }
    }
    expect(new Set(refused)).toEqual(
      new Set([
        "GET /metrics",
        "HEAD /metrics",
        "GET /openapi.json",
        "HEAD /openapi.json",
        "GET /v1/models",
        "HEAD /v1/models",
        "POST /v1/verified",
        "POST /v1/verified/extract",
        "POST /v1/verified/eval",
        "POST /v1/verified/check",
        "POST /v1/chat/completions",
        "POST /v1/guardrails/portkey",
        "POST /v1/guardrails/litellm/beta/litellm_basic_guardrail_api",
      ]),
    );
    // The public routes are the health and readiness checks and the playground's static files, nothing else.
    for (const name of open)
      expect(name).toMatch(/^(GET|HEAD) (\/healthz|\/readyz|\/|\/index\.html|\/assets\/[\w.-]+\.(js|css))$/);
    expect(gateway.calls).toHaveLength(0);
  });

  it("the playground's files are static: no API data, and the page may only call this origin", async () => {
    const service = await startWithoutGateway({ config });
    const page = await fetch(`${service.url}/`);
    if (page.status === 404) return; // the playground is not built in this checkout
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("connect-src 'self'");
    expect(await page.text()).not.toMatch(/listed-key|gateway-key/);
  });

  it("no path reaches a file outside the playground's own", async () => {
    const service = await startWithoutGateway({ config });
    const client = createRawClient(service.url);
    closeAfterTest(client);
    for (const path of [
      "/../package.json",
      "/assets/../../package.json",
      "/assets/..%2f..%2fpackage.json",
      "/%2e%2e/%2e%2e/package.json",
      "/assets/%2e%2e%2f%2e%2e%2fsrc%2fserver%2fapp.ts",
      "/..%5c..%5cpackage.json",
      "/index.html%00.json",
      "/assets/",
      "/src/server/app.ts",
      "/dist/server/app.js",
      "/.env",
      "/package.json",
    ]) {
      const response = await client.send({ method: "GET", path });
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expectRegistryError(response.status, response.json);
      expect(response.text).not.toMatch(/"name": "verified"|createApp|import /);
    }
  });

  it("keys of any length or alphabet are refused without an error, and only listed keys pass", async () => {
    const { service } = await startWithGateway({ config });
    const client = createRawClient(service.url);
    closeAfterTest(client);
    // Latin-1 bytes are legal in a header value; a timing-unsafe compare of raw buffers throws on them.
    for (const key of [
      "x",
      "listed-key-",
      "listed-key-12",
      "k".repeat(8_000),
      "listed-kéy-1",
      "ä".repeat(33),
    ]) {
      const response = await client.send(
        jsonPost("/v1/verified/check", { sources: [], claims: [] }, { key }),
      );
      expect(response.status, key.slice(0, 20)).toBe(401);
      expect(response.json.error.message).toBe("The API key is not valid for this service.");
    }
    const ok = await client.send(
      jsonPost("/v1/verified/check", { sources: [], claims: [] }, { key: "listed-key-2" }),
    );
    expect(ok.status).toBe(200);
  });
});

describe("keys are compared in constant time", () => {
  it("over SHA-256 digests with timingSafeEqual, visiting every listed key", () => {
    const source = readFileSync(new URL("../../src/server/plugins/auth.ts", import.meta.url), "utf8");
    expect(source).toMatch(/import \{[^}]*\btimingSafeEqual\b[^}]*\} from "node:crypto"/);
    expect(source).toMatch(/createHash\("sha256"\)/);
    expect(source).toMatch(/timingSafeEqual\(candidate, allowedDigest\)/);
    // No early exit: the loop does not stop at the match.
    expect(source).not.toMatch(/\.some\(|\.includes\(|\.indexOf\(|===\s*key|key\s*===/);
  });

  it("accepts exactly the listed keys, and never throws on a length that differs", () => {
    const check = createKeyChecker(["short", "a-much-longer-key-0123456789", "ключ"]);
    expect(check("short")).toBe(true);
    expect(check("a-much-longer-key-0123456789")).toBe(true);
    expect(check("ключ")).toBe(true);
    for (const key of [
      "",
      "shor",
      "shortt",
      "SHORT",
      "a-much-longer-key-012345678",
      "x".repeat(100_000),
      "\u0000",
      "\ud800",
    ]) {
      expect(() => check(key)).not.toThrow();
      expect(check(key)).toBe(false);
    }
  });
});

describe("nothing in a request changes where the service connects", () => {
  it.each([
    "url",
    "base_url",
    "baseURL",
    "gateway_url",
    "api_base",
    "headers",
    "host",
    "extra_headers",
    "api_key",
  ])('a "%s" field is refused as unknown, before any call', async (field) => {
    const { gateway, service } = await startWithGateway();

    for (const [path, body] of [
      ["/v1/verified", createBody],
      ["/v1/verified/extract", { model: "gpt-test", sources: [report], schema: { city: "city" } }],
      ["/v1/verified/eval", { model: "gpt-test", cases: [{ messages: question, sources: [report] }] }],
    ] as const) {
      const response = await service.post(path, { ...body, [field]: "http://127.0.0.1:9/v1" });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ type: "invalid_request", param: field });
      expect(response.body.error.message).toContain(`"${field}" is not a known field`);
    }
    // Nor inside a message or a source.
    const nested = await service.post("/v1/verified", {
      ...createBody,
      messages: [{ ...question[0], url: "http://127.0.0.1:9/v1" }],
    });
    expect(nested.status).toBe(400);
    expect(gateway.calls).toHaveLength(0);
  });

  it("a model id that looks like a URL or a path goes, verbatim in the body, to the configured URL only", async () => {
    const elsewhere = await startScriptedGateway();
    closeAfterTest(elsewhere);
    const { gateway, service } = await startWithGateway();
    gateway.script(() => lyon);
    const elsewhereHost = new URL(elsewhere.url).host;
    const models = [
      "http://evil.example/",
      `http://${elsewhereHost}/v1`,
      `//${elsewhereHost}/v1`,
      "../../x",
      "..%2F..%2Fx",
      "/v1/../../admin",
      "gpt?redirect=http://evil.example",
      "gpt#fragment",
      "a\r\nHost: evil.example",
      "@evil.example",
    ];

    for (const model of models) {
      const response = await service.post(
        "/v1/verified",
        { ...createBody, model },
        {
          key: "caller-key-1",
          headers: { "x-forwarded-host": elsewhereHost, forwarded: `host=${elsewhereHost}` },
        },
      );
      expect(response.status, model).toBe(200);
    }

    expect(gateway.calls.map((call) => [call.path, (call.body as { model: string }).model])).toEqual(
      models.map((model) => ["/v1/chat/completions", model]),
    );
    for (const call of gateway.calls) {
      expect(call.headers.host).toBe(new URL(gateway.url).host);
      expect(call.headers.authorization).toBe("Bearer caller-key-1");
      // The caller's own headers are not passed on.
      expect(call.headers).not.toHaveProperty("x-forwarded-host");
      expect(call.headers).not.toHaveProperty("forwarded");
    }
    expect(elsewhere.calls).toHaveLength(0);
  });

  it.each([301, 302, 303, 307, 308])(
    "a %s redirect from the gateway is not followed, so the key never reaches the other host",
    async (status) => {
      const elsewhere = await startScriptedGateway();
      closeAfterTest(elsewhere);
      const { gateway, service } = await startWithGateway();
      gateway.script.replyWith([
        jsonReply(
          {},
          { status, headers: { location: `${elsewhere.url}/chat/completions?api_key=caller-key-7` } },
        ),
      ]);

      const response = await service.post("/v1/verified", createBody, { key: "caller-key-7" });

      expect(response.status).toBe(502);
      expect(response.body.error.type).toBe("gateway_error");
      expect(response.body.error.message).toContain("set the gateway URL to the final address");
      expect(JSON.stringify(response.body)).not.toContain("caller-key-7");
      expect(gateway.calls).toHaveLength(1);
      expect(elsewhere.calls).toHaveLength(0);
    },
  );

  it("a key that cannot be a header value is refused, not sent", async () => {
    const { gateway, service } = await startWithGateway();
    const client = createRawClient(service.url);
    closeAfterTest(client);

    const response = await client.send(jsonPost("/v1/verified", createBody, { key: "kéy-with-latin1" }));

    expect(response.status).toBe(401);
    expect(response.json.error.type).toBe("invalid_key");
    expect(gateway.calls).toHaveLength(0);
  });
});

describe("error messages that echo the gateway mask anything that looks like a key", () => {
  const callerKey = "caller-key-Zq81";
  const secrets = [
    callerKey,
    "sk-proj-AbCdEf0123456789xyz",
    "Bearer tok-4f4f4f4f",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
    "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822c",
  ];
  const leaky = `Key ${callerKey} rejected; also tried sk-proj-AbCdEf0123456789xyz with Authorization: Bearer tok-4f4f4f4f, session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl, hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822c`;
  const three = (reply: ScriptedAnswer) => [reply, reply, reply];

  it.each<{ name: string; replies: ScriptedAnswer[]; type: string }>([
    { name: "400", replies: [errorReply(400, leaky)], type: "gateway_error" },
    { name: "401", replies: [errorReply(401, leaky)], type: "invalid_key" },
    { name: "402", replies: [errorReply(402, leaky)], type: "insufficient_quota" },
    { name: "403", replies: [errorReply(403, leaky)], type: "invalid_key" },
    { name: "404", replies: [errorReply(404, leaky)], type: "model_not_found" },
    { name: "429", replies: [errorReply(429, leaky)], type: "rate_limited" },
    { name: "500 three times", replies: three(errorReply(500, leaky)), type: "gateway_error" },
    { name: "a 200 with an error object", replies: [jsonReply({ error: leaky })], type: "gateway_error" },
    { name: "plain text", replies: [textReply(leaky, { status: 400 })], type: "gateway_error" },
    {
      name: "FastAPI's detail",
      replies: [jsonReply({ detail: leaky }, { status: 422 })],
      type: "gateway_error",
    },
    {
      name: "a top-level message",
      replies: [jsonReply({ message: leaky, code: 400 }, { status: 400 })],
      type: "gateway_error",
    },
    { name: "an HTML page", replies: three(htmlReply(503, leaky)), type: "gateway_error" },
  ])("$name", async ({ replies, type }) => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith(replies);

    const response = await service.post("/v1/verified", createBody, { key: callerKey });
    gateway.script.replyWith(replies);
    const evalResponse = await service.post(
      "/v1/verified/eval",
      { model: "gpt-test", cases: [{ messages: question, sources: [report] }] },
      { key: callerKey },
    );

    expectRegistryError(response.status, response.body);
    expect(response.body.error.type).toBe(type);
    for (const text of [JSON.stringify(response.body), JSON.stringify(evalResponse.body)]) {
      for (const secret of secrets) expect(text).not.toContain(secret.replace(/^Bearer /, ""));
    }
  });

  it("the configured gateway key, echoed back, is masked too", async () => {
    const { gateway, service } = await startWithGateway({
      config: { apiKeys: ["listed-key-1"], gatewayKey: "gw-key-short" },
    });
    gateway.script.replyWith([errorReply(401, "Key gw-key-short is disabled")]);

    const response = await service.post("/v1/verified", createBody, { key: "listed-key-1" });

    expect(response.status).toBe(401);
    expect(response.body.error.message).toBe(
      "The gateway refused the API key (HTTP 401: Key *** is disabled).",
    );
  });
});

describe("the logs of a full run hold no key and no text from a request", () => {
  it("through successes, bad input, gateway faults, timeouts and a disconnect", async () => {
    const planted = {
      callerKey: "planted-caller-key-61f0",
      otherKey: "sk-planted0123456789abcdef",
      source: "PLANTED-SOURCE-TEXT-77a1",
      sourceId: "planted-source-id-19",
      question: "PLANTED-QUESTION-TEXT-3c3c",
      field: "planted_field_name_5d",
      description: "PLANTED-FIELD-DESCRIPTION-8e",
      claim: "PLANTED-CLAIM-TEXT-0b0b",
      gatewaySays: "PLANTED-GATEWAY-MESSAGE-aa11",
      unknownField: "planted_unknown_field_e4",
    };
    const { gateway, service } = await startWithGateway({ captureLogs: true, gatewayTimeoutMs: 1_500 });
    const client = createRawClient(service.url);
    closeAfterTest(client);
    const sources = [{ id: planted.sourceId, text: `It began in Lyon. ${planted.source}.` }];
    const messages = [{ role: "user", content: `${planted.question} Where did it begin?` }];
    const good = claimsContent({ claim: planted.claim, quote: planted.source, source: planted.sourceId });
    const key = { key: planted.callerKey };
    const send = (path: string, body: unknown, options: Parameters<typeof jsonPost>[2] = key) =>
      client.send(jsonPost(path, body, options));
    // The model id is logged by design; it is not planted.
    const create = { model: "gpt-test", messages, sources };

    const responses: RawResponse[] = [];
    gateway.script.replyWith([good]);
    responses.push(await send("/v1/verified", create));
    responses.push(await send("/v1/verified", { ...create, model: "local" }));
    gateway.script.replyWith([
      JSON.stringify({ fields: { [planted.field]: { value: "Lyon", source: planted.sourceId } } }),
    ]);
    responses.push(
      await send("/v1/verified/extract", {
        model: "gpt-test",
        sources,
        schema: { [planted.field]: planted.description },
      }),
    );
    gateway.script.replyWith([good, good]);
    responses.push(
      await send("/v1/verified/eval", {
        model: "gpt-test",
        cases: [
          { messages, sources },
          { messages, sources },
        ],
      }),
    );
    responses.push(
      await send("/v1/verified/check", {
        sources,
        claims: [{ claim: planted.claim, quote: planted.source, source: planted.sourceId }],
      }),
    );
    // Bad input that carries the planted text in odd places.
    responses.push(await send("/v1/verified", { ...create, [planted.unknownField]: planted.question }));
    responses.push(await send("/v1/verified", `{"model": "gpt-test", "messages": ["${planted.question}`));
    responses.push(
      await send("/v1/verified", { ...create, messages: [{ role: planted.question, content: "x" }] }),
    );
    responses.push(await send("/v1/verified", { ...create, sources: [...sources, ...sources] }));
    responses.push(
      await send("/v1/verified", {
        ...create,
        sources: [{ id: planted.sourceId, text: planted.source.repeat(5_000) }],
      }),
    );
    gateway.script.replyWith([good]);
    responses.push(await send("/v1/verified", create, { key: planted.otherKey }));
    responses.push(
      await send("/v1/verified", create, {
        key: null,
        headers: { authorization: `Basic ${planted.callerKey}` },
      }),
    );
    responses.push(await send(`/v1/${planted.question}?key=${planted.callerKey}`, create));
    // The gateway failing in ways that echo the key and text back.
    const echo = `${planted.gatewaySays}: key ${planted.callerKey}, source ${planted.source}`;
    for (const replies of [
      [errorReply(401, echo)],
      [errorReply(429, echo, { headers: { "retry-after": "1" } })],
      [errorReply(500, echo), errorReply(500, echo), errorReply(500, echo)],
      [textReply(echo), textReply(echo), textReply(echo)],
      [`${planted.claim} is not JSON`, `${planted.claim} still not JSON`],
      [hangReply()],
    ]) {
      gateway.script.replyWith(replies);
      responses.push(await send("/v1/verified", create));
    }
    // A caller that leaves mid-request.
    gateway.script.replyWith([hangReply()]);
    const leaving = httpRequest(`${service.url}/v1/verified`, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", authorization: `Bearer ${planted.callerKey}` },
    });
    leaving.on("error", () => undefined);
    leaving.end(JSON.stringify(create));
    await gateway.waitForCalls(gateway.calls.length + 1);
    leaving.destroy();
    await gateway.waitForClientClose(gateway.calls.length - 1);

    expect(responses.map((response) => response.status)).toEqual([
      200, 200, 200, 200, 200, 400, 400, 400, 400, 400, 200, 401, 404, 401, 429, 502, 502, 502, 504,
    ]);
    const requestLines = () => service.logs.filter((line) => line.msg === "request");
    // One line per request, the one the caller left included (status 499, as nginx logs it).
    await waitUntil(() => requestLines().length === responses.length + 1, "a log line for every request");
    expect(requestLines().at(-1)).toMatchObject({ route: "/v1/verified", status: 499, model_calls: 0 });
    const serialized = JSON.stringify(service.logs);
    for (const [name, value] of Object.entries(planted)) {
      expect(serialized.includes(value), `${name} leaked into the logs`).toBe(false);
    }
    expect(serialized).not.toMatch(/authorization|bearer|sk-/i);
  });
});

describe("body size limits", () => {
  it("eval refuses a body over 64 MiB with 413, from its Content-Length, before reading it", async () => {
    const { gateway, service } = await startWithGateway();
    const client = createRawClient(service.url);
    closeAfterTest(client);
    const body = Buffer.alloc(64 * 1024 * 1024 + 1, 0x20);

    const response = await client.send({
      path: "/v1/verified/eval",
      headers: {
        "content-type": "application/json",
        authorization: "Bearer k",
        "content-length": String(body.length),
      },
      body,
      timeoutMs: 30_000,
    });

    expect(response.status).toBe(413);
    expect(response.json.error).toEqual({
      type: "payload_too_large",
      code: "payload_too_large",
      message: "The request body is larger than 64 MiB, this endpoint's limit.",
      request_id: expect.any(String),
    });
    expect(gateway.calls).toHaveLength(0);
  });

  // The check takes 8 MiB: a 4 MiB answer with its sources.
  it.each([
    ["/v1/verified", "4 MiB", 4],
    ["/v1/verified/extract", "4 MiB", 4],
    ["/v1/verified/check", "8 MiB", 8],
  ])("%s refuses a chunked body (no Content-Length) once it passes %s", async (path, _, mebibytes) => {
    const { service } = await startWithGateway();
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${service.url}${path}`, {
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          authorization: "Bearer k",
          "transfer-encoding": "chunked",
        },
      });
      request.on("error", reject);
      request.on("response", (answer) => {
        let text = "";
        answer.on("data", (chunk: Buffer) => (text += chunk.toString()));
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body: text }));
      });
      const piece = Buffer.alloc(256 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < (mebibytes + 1) * 1024 * 1024) {
          sent += piece.length;
          if (!request.write(piece)) return void request.once("drain", pump);
        }
        request.end();
      };
      request.write('{"model": "x", "pad": "');
      pump();
    });

    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).error.type).toBe("payload_too_large");
  });
});

describe("no framework fingerprint in any answer", () => {
  it("no X-Powered-By, no Server header, no header naming the framework or runtime", async () => {
    const { gateway, service } = await startWithGateway({ config: { apiKeys: ["k"] } });
    gateway.script(() => lyon);
    const client = createRawClient(service.url);
    closeAfterTest(client);
    const answers = [
      await client.send(jsonPost("/v1/verified", createBody, { key: "k" })),
      await client.send(jsonPost("/v1/verified", { ...createBody, model: "local" }, { key: "k" })),
      await client.send(jsonPost("/v1/verified/check", { sources: [report], claims: [] }, { key: "k" })),
      await client.send(jsonPost("/v1/verified", "{", { key: "k" })),
      await client.send(jsonPost("/v1/verified", createBody, { key: "wrong" })),
      await client.send(
        jsonPost("/v1/verified", "x", { key: "k", headers: { "content-type": "text/plain" } }),
      ),
      await client.send(jsonPost("/nowhere", {}, { key: "k" })),
      await client.send({ method: "DELETE", path: "/v1/verified" }),
      await client.send({ method: "GET", path: "/healthz" }),
      await client.send({ method: "HEAD", path: "/healthz" }),
      await client.send({ method: "GET", path: "/openapi.json", headers: { authorization: "Bearer k" } }),
      await client.send({ method: "GET", path: "/" }),
      await client.send({ method: "OPTIONS", path: "/v1/verified" }),
    ];
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toEqual(expect.arrayContaining([200, 400, 401, 404, 405, 415]));
    for (const answer of answers) {
      expect(answer.headers).not.toHaveProperty("x-powered-by");
      expect(answer.headers).not.toHaveProperty("server");
      for (const [name, value] of Object.entries(answer.headers)) {
        expect(`${name}: ${value}`).not.toMatch(/fastify|node\.?js|express|undici|pino/i);
      }
      expect(answer.text).not.toMatch(/fastify|FST_ERR|node_modules|at \w+ \(/i);
    }
  });
});

/** Writes `text` on a new connection and returns everything the server sent before closing it. */
function rawExchange(url: string, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), "127.0.0.1");
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(received));
    socket.end(text);
  });
}

describe("requests Node's HTTP parser refuses", () => {
  it.each([
    { name: "a garbage request line", text: "GARBAGE\r\n\r\n", message: "The request is not valid HTTP." },
    {
      name: "headers over the size limit",
      text: `POST /v1/verified HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${"k".repeat(20_000)}\r\n\r\n`,
      message: "The request's headers are larger than the server accepts.",
    },
    {
      name: "a control character in a header name",
      text: "POST /v1/verified HTTP/1.1\r\nHost: x\r\nBad\u0001Name: 1\r\n\r\n",
      message: "The request is not valid HTTP.",
    },
    {
      name: "both Content-Length and Transfer-Encoding (request smuggling)",
      text: "POST /v1/verified HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      message: "The request is not valid HTTP.",
    },
    {
      name: "a Content-Length that is not a number",
      text: "POST /v1/verified HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
      message: "The request is not valid HTTP.",
    },
  ])("$name: the service's 400 error body, not the framework's", async ({ text, message }) => {
    const service = await startWithoutGateway();

    const answer = await rawExchange(service.url, text);

    const [head = "", body = ""] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body)).toEqual({
      error: { type: "invalid_request", code: "invalid_request", message },
    });
    // The service still serves.
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  });
});

describe("JSON parsing cannot be prototype-polluted", () => {
  const payloads = [
    '{"__proto__": {"polluted": "yes"}, "model": "local", "messages": [], "sources": []}',
    '{"model": "local", "messages": [{"role": "user", "content": "x", "__proto__": {"polluted": "yes"}}], "sources": []}',
    '{"model": "local", "messages": [], "sources": [{"id": "a", "text": "b", "__proto__": {"polluted": "yes"}}]}',
    '{"model": "local", "messages": [], "sources": [], "constructor": {"prototype": {"polluted": "yes"}}}',
    '{"model": "local", "messages": [], "sources": [], "\\u005f\\u005fproto\\u005f\\u005f": {"polluted": "yes"}}',
    '{"model": "local", "messages": [], "sources": [], "x": [[[{"__proto__": {"polluted": "yes"}}]]]}',
  ];

  it.each(["/v1/verified", "/v1/verified/extract", "/v1/verified/eval", "/v1/verified/check"])(
    "%s answers 400 to every __proto__ or constructor.prototype payload, and Object.prototype stays clean",
    async (path) => {
      const service = await startWithoutGateway();
      for (const payload of payloads) {
        const response = await service.post(path, payload);
        expect(response.status, payload).toBe(400);
        expect(response.body.error.type).toBe("invalid_request");
      }
      const extract = await service.post(
        "/v1/verified/extract",
        '{"model": "local", "sources": [{"id": "a", "text": "x"}], "schema": {"__proto__": "polluted"}}',
      );
      expect(extract.status).toBe(400);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty("polluted");
    },
  );

  it("nor can a model's output or a gateway's error body", async () => {
    const { gateway, service } = await startWithGateway();
    const poisoned = [
      '{"claims": [{"claim": "Lyon.", "quote": "Lyon", "source": "report", "__proto__": {"polluted": "yes"}}], "__proto__": {"polluted": "yes"}}',
      '{"fields": {"__proto__": {"value": "Lyon", "source": "report"}, "city": {"value": "Lyon", "source": "report", "constructor": {"prototype": {"polluted": "yes"}}}}}',
    ];
    gateway.script.replyWith([poisoned[0] ?? "", poisoned[1] ?? ""]);

    const create = await service.post("/v1/verified", createBody);
    const extract = await service.post("/v1/verified/extract", {
      model: "gpt-test",
      sources: [report],
      schema: { city: "city" },
    });
    gateway.script.replyWith([
      textReply('{"error": {"message": "bad", "__proto__": {"polluted": "yes"}}}', { status: 400 }),
    ]);
    const failed = await service.post("/v1/verified", createBody);

    expect(create.status).toBe(200);
    expect(create.body.citations).toEqual([
      { claim: "Lyon.", quote: "Lyon", source: "report", range: [33, 37] },
    ]);
    expect(extract.status).toBe(200);
    expect(extract.body.fields).toEqual({
      city: { value: "Lyon", source: "report", range: [33, 37], grounded: true },
    });
    expect(failed.status).toBe(502);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});
