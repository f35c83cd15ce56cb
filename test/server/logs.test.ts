import { describe, expect, it } from "vitest";
import { errorReply } from "../support/scripted-gateway.js";
import { chatBody, claimsContent, report, startWithGateway } from "./harness.js";

// One JSON log line per request, with route, status, duration, model, model_calls and coverage, and never a
// key, a source or a message.

type LogLine = Record<string, unknown>;

const requestLines = (logs: LogLine[]) => logs.filter((line) => line.msg === "request");

describe("the log line of a request", () => {
  it("has route, method, status, duration_ms, model, model_calls and coverage, one line per request", async () => {
    const { gateway, service } = await startWithGateway({ captureLogs: true });
    gateway.script((call) =>
      chatBody(call).response_format?.json_schema?.name === "verified_fields"
        ? JSON.stringify({ fields: { city: { value: "Lyon", source: "report" }, ceo: null } })
        : claimsContent(
            { claim: "Lyon.", quote: "Lyon", source: "report" },
            { claim: "Paris.", quote: "Paris", source: "report" },
          ),
    );
    const messages = [{ role: "user", content: "Where?" }];

    await service.post("/v1/verified", { model: "gpt-test", messages, sources: [report], retry: 1 });
    await service.post("/v1/verified/extract", {
      model: "gpt-test",
      sources: [report],
      schema: { city: "city", ceo: "chief executive" },
    });
    await service.post("/v1/verified/eval", {
      model: "gpt-test",
      cases: [
        { messages, sources: [report] },
        { messages, sources: [report] },
      ],
    });
    await service.post("/v1/verified/check", {
      sources: [report],
      claims: [{ quote: "Lyon", source: "report" }],
    });
    await fetch(`${service.url}/healthz`);

    const lines = requestLines(service.logs);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        route: "/v1/verified",
        method: "POST",
        status: 200,
        model: "gpt-test",
        model_calls: 2,
        coverage: 0.5,
      }),
      expect.objectContaining({
        route: "/v1/verified/extract",
        status: 200,
        model: "gpt-test",
        model_calls: 1,
        coverage: 0.5,
      }),
      expect.objectContaining({
        route: "/v1/verified/eval",
        status: 200,
        model: "gpt-test",
        model_calls: 2,
        coverage: 0.5,
      }),
      expect.objectContaining({ route: "/v1/verified/check", status: 200, model_calls: 0, coverage: 1 }),
      expect.objectContaining({ route: "/healthz", method: "GET", status: 200 }),
    ]);
    for (const line of lines) {
      expect(line.duration_ms).toBeTypeOf("number");
      expect(line.duration_ms as number).toBeGreaterThanOrEqual(0);
    }
  });

  it.each([
    {
      name: "422 ungrounded after two calls",
      replies: [claimsContent({ claim: "x", quote: "nowhere", source: "report" }), claimsContent()],
      status: 422,
      modelCalls: 2,
    },
    { name: "502 extraction_failed after two calls", replies: ["no", "no"], status: 502, modelCalls: 2 },
    { name: "401 from the gateway", replies: [errorReply(401, "bad key")], status: 401, modelCalls: 0 },
  ])(
    "a failed request still reports its status and model calls: $name",
    async ({ replies, status, modelCalls }) => {
      const { gateway, service } = await startWithGateway({ captureLogs: true });
      gateway.script.replyWith(replies);

      const response = await service.post("/v1/verified", {
        model: "gpt-test",
        messages: [{ role: "user", content: "Where?" }],
        sources: [report],
        retry: 1,
      });

      expect(response.status).toBe(status);
      expect(requestLines(service.logs)).toEqual([
        expect.objectContaining({
          route: "/v1/verified",
          status,
          model: "gpt-test",
          model_calls: modelCalls,
        }),
      ]);
    },
  );

  it("logs unknown paths and refused requests too", async () => {
    const { service } = await startWithGateway({ captureLogs: true });

    await fetch(`${service.url}/nope`);
    await service.post("/v1/verified", {}, { key: null, headers: { authorization: "Basic dXNlcjpwYXNz" } });
    await service.post("/v1/verified", { model: 5 });

    expect(requestLines(service.logs).map((line) => [line.route, line.status])).toEqual([
      ["(unknown)", 404],
      ["/v1/verified", 401],
      ["/v1/verified", 400],
    ]);
  });

  it("never contains a key, source text, message text, schema text or model output", async () => {
    const planted = {
      callerKey: "planted-caller-key-5e1d",
      wrongKey: "planted-wrong-key-77aa",
      gatewayKey: "planted-gateway-key-c0de",
      source: "PLANTED-SOURCE-TEXT-3b9f",
      sourceId: "planted-source-id-a1",
      question: "PLANTED-QUESTION-TEXT-91bc",
      system: "PLANTED-SYSTEM-TEXT-44d0",
      schema: "PLANTED-SCHEMA-DESCRIPTION-0e7c",
      output: "PLANTED-MODEL-OUTPUT-6a2f",
      claim: "PLANTED-CLAIM-TEXT-d3d3",
    };
    const { gateway, service } = await startWithGateway({
      captureLogs: true,
      config: { apiKeys: [planted.callerKey], gatewayKey: planted.gatewayKey },
    });
    const sources = [{ id: planted.sourceId, text: `Founded in Lyon. ${planted.source}.` }];
    const messages = [
      { role: "system", content: planted.system },
      { role: "user", content: planted.question },
    ];
    gateway.script((call) => {
      const format = chatBody(call).response_format?.json_schema?.name;
      if (format === "verified_fields") return `${planted.output} not JSON`;
      if (format === "verified_claims")
        return claimsContent({ claim: planted.claim, quote: planted.source, source: planted.sourceId });
      return planted.output;
    });
    const key = { key: planted.callerKey };

    const statuses = [
      (await service.post("/v1/verified", { model: "gpt-test", messages, sources }, key)).status,
      (
        await service.post(
          "/v1/verified",
          { model: "gpt-test", messages, sources: [], allow_ungrounded: true },
          key,
        )
      ).status,
      (
        await service.post(
          "/v1/verified/extract",
          { model: "gpt-test", sources, schema: { a: planted.schema } },
          key,
        )
      ).status,
      (await service.post("/v1/verified/eval", { model: "gpt-test", cases: [{ messages, sources }] }, key))
        .status,
      (
        await service.post(
          "/v1/verified/check",
          { sources, claims: [{ claim: planted.claim, quote: planted.source, source: planted.sourceId }] },
          key,
        )
      ).status,
      (await service.post("/v1/verified", { model: "local", messages, sources }, key)).status,
      (
        await service.post(
          "/v1/verified",
          { model: "gpt-test", messages, sources },
          { key: planted.wrongKey },
        )
      ).status,
      (
        await service.post(
          "/v1/verified",
          { model: "gpt-test", messages, sources, [planted.question]: 1 },
          key,
        )
      ).status,
      (await service.post("/v1/verified", `{"model": "${planted.question}", `, key)).status,
    ];

    expect(statuses).toEqual([200, 200, 502, 200, 200, 200, 401, 400, 400]);
    expect(requestLines(service.logs)).toHaveLength(statuses.length);
    const serialized = JSON.stringify(service.logs);
    for (const [name, value] of Object.entries(planted)) {
      expect(serialized.includes(value), `${name} leaked into the logs`).toBe(false);
    }
    expect(serialized).not.toMatch(/authorization|bearer/i);
  });
});
