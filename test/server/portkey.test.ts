import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimsOutputSchema } from "../../src/service/model-output.js";
import { errorReply, type ScriptedGateway, startScriptedGateway } from "../support/scripted-gateway.js";
import { portkeySuite, type RunningPortkey, startPortkeyGateway } from "../support/start-portkey-gateway.js";
import { startService } from "../support/start-service.js";
import { chatBody, claimFrom, claimsContent, closeAfterTest, question, rangeOf, report } from "./harness.js";

// One create through a real open-source gateway, Portkey's AI Gateway, started on loopback: the service
// speaks to Portkey as to any OpenAI-compatible gateway, and Portkey, routed by the extra headers
// (VERIFIED_GATEWAY_HEADERS in production), forwards the call to the scripted upstream.

const { server: portkeyServer, title } = portkeySuite("through @portkey-ai/gateway");

describe.skipIf(portkeyServer === undefined)(title, () => {
  let upstream: ScriptedGateway;
  let portkey: RunningPortkey;

  beforeAll(async () => {
    upstream = await startScriptedGateway();
    portkey = await startPortkeyGateway(portkeyServer ?? "");
  }, 40_000);

  afterAll(async () => {
    await portkey?.close();
    await upstream?.close();
  });

  /** The service, pointed at Portkey, with the headers that route Portkey to the scripted upstream. */
  async function serviceThroughPortkey() {
    const service = await startService({
      gatewayURL: portkey.url,
      gatewayHeaders: { "x-portkey-provider": "openai", "x-portkey-custom-host": upstream.url },
      newId: () => "vfd_portkey",
    });
    closeAfterTest(service);
    return service;
  }

  it("runs a create end to end, and the upstream gets the request as the service wrote it", async () => {
    const service = await serviceThroughPortkey();
    const founded = claimFrom(report, "Northwind was founded in 2016 in Lyon.");
    upstream.script.replyWith([claimsContent(founded)]);
    const callsBefore = upstream.calls.length;

    const response = await service.post(
      "/v1/verified",
      { model: "gpt-4o-mini", messages: question, sources: [report], temperature: 0.2, max_tokens: 256 },
      { key: "sk-portkey-test-key" },
    );

    expect(response.status, portkey.output()).toBe(200);
    expect(response.body).toEqual({
      id: "vfd_portkey",
      model: "gpt-4o-mini",
      text: "Northwind was founded in 2016 in Lyon [report].",
      citations: [{ ...founded, range: rangeOf(report, founded.quote) }],
      unsupported: [],
      coverage: 1,
      abstained: false,
      grounded: true,
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, model_calls: 1 },
    });

    const calls = upstream.calls.slice(callsBefore);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.path).toBe("/v1/chat/completions");
    // Portkey's OpenAI provider forwards the caller's key as the upstream bearer key.
    expect(call?.headers.authorization).toBe("Bearer sk-portkey-test-key");
    const body = chatBody(call);
    expect(body).toMatchObject({
      model: "gpt-4o-mini",
      temperature: 0.2,
      max_tokens: 256,
      response_format: {
        type: "json_schema",
        json_schema: { name: "verified_claims", schema: claimsOutputSchema, strict: true },
      },
    });
    expect(body.messages).toEqual([
      { role: "system", content: expect.stringContaining(report.text) },
      ...question,
    ]);
  });

  it("maps an upstream 401 that Portkey passes on to invalid_key", async () => {
    const service = await serviceThroughPortkey();
    upstream.script.replyWith([
      errorReply(401, "Incorrect API key provided: sk-portkey-bad-key.", { code: "invalid_api_key" }),
    ]);

    const response = await service.post(
      "/v1/verified",
      { model: "gpt-4o-mini", messages: question, sources: [report] },
      { key: "sk-portkey-bad-key" },
    );

    expect(response.status, portkey.output()).toBe(401);
    expect(response.body.error).toMatchObject({ type: "invalid_key", code: "invalid_key" });
    expect(JSON.stringify(response.body)).not.toContain("sk-portkey-bad-key");
  });
});
