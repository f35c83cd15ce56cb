import { describe, expect, it } from "vitest";
import { errorReply } from "../support/scripted-gateway.js";
import { startService } from "../support/start-service.js";
import { claimsContent, question, report, startWithGateway } from "./harness.js";

// Which key the caller must send, and which key the gateway gets.

const createBody = { model: "gpt-test", messages: question, sources: [report] };
const lyon = claimsContent({ claim: "It was founded in Lyon.", quote: "Lyon", source: "report" });

const operations = [
  { path: "/v1/verified", body: createBody },
  { path: "/v1/verified/extract", body: { model: "gpt-test", sources: [report], schema: { city: "City" } } },
  {
    path: "/v1/verified/eval",
    body: { model: "gpt-test", cases: [{ messages: question, sources: [report] }] },
  },
  { path: "/v1/verified/check", body: { sources: [report], claims: [{ quote: "Lyon", source: "report" }] } },
];

const invalidKey = (message: string) => ({
  error: { type: "invalid_key", code: "invalid_key", message, request_id: expect.any(String) },
});
const notValidHere = invalidKey("The API key is not valid for this service.");

describe("by default the caller's key is forwarded", () => {
  it("sends the caller's bearer key to the gateway on every call", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent({ claim: "Paris.", quote: "Paris", source: "report" }), lyon]);

    const response = await service.post("/v1/verified", { ...createBody, retry: 1 }, { key: "caller-key-1" });

    expect(response.status).toBe(200);
    expect(gateway.calls.map((call) => call.headers.authorization)).toEqual([
      "Bearer caller-key-1",
      "Bearer caller-key-1",
    ]);
  });

  it("each caller's own key goes with that caller's calls", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script((call) => (call.headers.authorization === "Bearer key-b" ? lyon : claimsContent()));

    const [a, b] = await Promise.all([
      service.post("/v1/verified", createBody, { key: "key-a" }),
      service.post("/v1/verified", createBody, { key: "key-b" }),
    ]);

    expect(a.status).toBe(422);
    expect(b.status).toBe(200);
  });

  it("accepts any key (the gateway decides) and a lower-case scheme", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => lyon);

    const response = await service.post("/v1/verified", createBody, {
      key: null,
      headers: { authorization: "bearer whatever-key" },
    });

    expect(response.status).toBe(200);
    expect(gateway.calls[0]?.headers.authorization).toBe("Bearer whatever-key");
  });

  it("checks a malformed header before the body: an invalid JSON body with a Basic header is 401", async () => {
    const { service } = await startWithGateway();

    const response = await service.post("/v1/verified", "{not json", {
      key: null,
      headers: { authorization: "Basic dXNlcjpwYXNz" },
    });

    expect(response.status).toBe(401);
    expect(response.body).toEqual(invalidKey('The Authorization header must read "Bearer <key>".'));
  });

  const gatewayModelNeedsKey = invalidKey(
    'Model "gpt-test" is called through the model gateway with your API key: send it as "Authorization: Bearer <key>". Model "local" needs no key.',
  );

  it.each(operations.filter(({ path }) => path !== "/v1/verified/check"))(
    "refuses a gateway model without a key on $path, naming the key it needs, before any model call",
    async ({ path, body }) => {
      const { gateway, service } = await startWithGateway();

      const response = await service.post(path, body, { key: null });

      expect(response.status).toBe(401);
      expect(response.body).toEqual(gatewayModelNeedsKey);
      expect(gateway.calls).toHaveLength(0);
    },
  );

  it.each(operations)(
    "answers the local model (or no model) without a key on $path",
    async ({ path, body }) => {
      const { gateway, service } = await startWithGateway();
      const localBody = "model" in body ? { ...body, model: "local" } : body;

      const response = await service.post(path, localBody, { key: null });

      expect(response.status).toBe(200);
      expect(gateway.calls).toHaveLength(0);
    },
  );

  it("without a gateway, a gateway model with no key is model_not_found, which says what to change", async () => {
    const service = await startService();
    try {
      const response = await service.post("/v1/verified", createBody, { key: null });

      expect(response.status).toBe(404);
      expect(response.body.error.type).toBe("model_not_found");
    } finally {
      await service.close();
    }
  });

  it("reads a keyless body before judging it: invalid JSON without a key is 400, not 401", async () => {
    const { service } = await startWithGateway();

    const response = await service.post("/v1/verified", "{not json", { key: null });

    expect(response.status).toBe(400);
    expect(response.body.error.type).toBe("invalid_request");
  });

  it("serves /healthz and /openapi.json without a key", async () => {
    const { service } = await startWithGateway();

    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${service.url}/openapi.json`)).status).toBe(200);
  });
});

describe("with config.apiKeys the caller's key is checked and the gateway gets config.gatewayKey", () => {
  const config = { apiKeys: ["service-key-1", "service-key-2"], gatewayKey: "gateway-key-9" };

  it("accepts each listed key and calls the gateway with the gateway key only", async () => {
    const { gateway, service } = await startWithGateway({ config });
    gateway.script(() => lyon);

    for (const key of config.apiKeys) {
      const response = await service.post("/v1/verified", createBody, { key });
      expect(response.status).toBe(200);
    }

    expect(gateway.calls.map((call) => call.headers.authorization)).toEqual([
      "Bearer gateway-key-9",
      "Bearer gateway-key-9",
    ]);
    expect(JSON.stringify(gateway.calls)).not.toContain("service-key");
  });

  it("calls the gateway with no key when no gateway key is configured", async () => {
    const { gateway, service } = await startWithGateway({ config: { apiKeys: ["service-key-1"] } });
    gateway.script(() => lyon);

    const response = await service.post("/v1/verified", createBody, { key: "service-key-1" });

    expect(response.status).toBe(200);
    expect(gateway.calls[0]?.headers.authorization).toBeUndefined();
  });

  it("says which key is missing when a gateway refuses a call that carried none", async () => {
    const { gateway, service } = await startWithGateway({ config: { apiKeys: ["service-key-1"] } });
    gateway.script(() => errorReply(401, "You didn't provide an API key.", { code: "missing_api_key" }));

    const response = await service.post("/v1/verified", createBody, { key: "service-key-1" });

    expect(response.status).toBe(401);
    expect(response.body).toEqual(
      invalidKey(
        `The gateway refused the API key (HTTP 401 [missing_api_key]: You didn't provide an API key). The call to gateway "default" carried no key: set VERIFIED_GATEWAY_KEY on the service (with VERIFIED_API_KEYS) or api_key_env for the gateway in the config file, or, on a service without VERIFIED_API_KEYS, send the provider's key as "Authorization: Bearer <key>".`,
      ),
    );
  });

  it.each(operations)(
    "refuses a key not in the list on $path, before any model call",
    async ({ path, body }) => {
      const { gateway, service } = await startWithGateway({ config });

      for (const key of ["gateway-key-9", "service-key-", "service-key-10", "SERVICE-KEY-1"]) {
        const response = await service.post(path, body, { key });
        expect(response.status).toBe(401);
        expect(response.body).toEqual(notValidHere);
      }
      const missing = await service.post(path, body, { key: null });
      expect(missing.status).toBe(401);
      expect(gateway.calls).toHaveLength(0);
    },
  );

  it.each([
    { name: "a body that is not JSON", body: "{not json", headers: {} },
    { name: "a body over the size limit", body: "x".repeat(5 * 1024 * 1024), headers: {} },
    {
      name: "a body that is not JSON by content type",
      body: "a=b",
      headers: { "content-type": "text/plain" },
    },
    { name: "an invalid request", body: JSON.stringify({ model: 5 }), headers: {} },
  ])("refuses a wrong key with 401 before reading the body: $name", async ({ body, headers }) => {
    const { service } = await startWithGateway({ config });

    const response = await service.post("/v1/verified", body, { key: "wrong-key", headers });

    expect(response.status).toBe(401);
    expect(response.body).toEqual(notValidHere);
  });

  it("requires a listed key for the local model too", async () => {
    const { service } = await startWithGateway({ config });
    const body = { ...createBody, model: "local" };

    expect((await service.post("/v1/verified", body, { key: "wrong-key" })).status).toBe(401);
    expect((await service.post("/v1/verified", body, { key: "service-key-2" })).status).toBe(200);
  });

  it("protects /openapi.json but not /healthz", async () => {
    const { service } = await startWithGateway({ config });

    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${service.url}/openapi.json`)).status).toBe(401);
    const withKey = await fetch(`${service.url}/openapi.json`, {
      headers: { authorization: "Bearer service-key-1" },
    });
    expect(withKey.status).toBe(200);
  });

  it("never echoes the caller's key in an error", async () => {
    const { service } = await startWithGateway({ config });

    const response = await service.post("/v1/verified", createBody, { key: "planted-wrong-key-123" });

    expect(JSON.stringify(response.body)).not.toContain("planted-wrong-key-123");
  });
});
