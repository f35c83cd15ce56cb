import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { claimsOutputSchema, fieldsOutputSchema } from "../../src/service/model-output.js";
import { completion, errorReply, hangReply } from "../support/scripted-gateway.js";
import { chatBody, claimsContent, question, report, startWithGateway, table } from "./harness.js";

// What the service sends to an OpenAI-compatible gateway, seen from the gateway's side.

const createBody = { model: "gpt-test", messages: question, sources: [report, table] };
const lyon = claimsContent({ claim: "It was founded in Lyon.", quote: "Lyon", source: "report" });
const claimsFormat = {
  type: "json_schema",
  json_schema: { name: "verified_claims", schema: claimsOutputSchema, strict: true },
};

/** The service's instructions with every source in them, as the first (system) message. */
const instructionsWith = (...texts: string[]) => ({
  role: "system",
  content: expect.stringMatching(new RegExp(texts.map(escapeRegExp).join("[\\s\\S]*"))),
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("the Chat Completions request", () => {
  it("create: POST {gateway}/chat/completions with model, messages and a strict json_schema, nothing else", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([lyon]);

    const response = await service.post("/v1/verified", createBody);

    expect(response.status).toBe(200);
    const [call] = gateway.calls;
    expect(call?.method).toBe("POST");
    expect(call?.path).toBe("/v1/chat/completions");
    expect(call?.headers["content-type"]).toBe("application/json");
    expect(chatBody(call)).toEqual({
      model: "gpt-test",
      messages: [
        instructionsWith('<source id="report">', report.text, '<source id="table">', table.text),
        ...question,
      ],
      response_format: claimsFormat,
    });
  });

  it("keeps the caller's messages, system ones included, in order after the instructions", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([lyon]);
    const messages = [
      { role: "system", content: "Answer in one sentence." },
      { role: "user", content: "Where is Northwind?" },
      { role: "assistant", content: "In France." },
      { role: "user", content: "Which city?" },
    ];

    await service.post("/v1/verified", { ...createBody, messages });

    expect(chatBody(gateway.calls[0]).messages).toEqual([instructionsWith(report.text), ...messages]);
  });

  it.each([
    {
      name: "both given",
      extra: { temperature: 0.7, max_tokens: 300 },
      sent: { temperature: 0.7, max_tokens: 300 },
    },
    { name: "temperature 0 is sent, not dropped", extra: { temperature: 0 }, sent: { temperature: 0 } },
    { name: "max_tokens alone", extra: { max_tokens: 1 }, sent: { max_tokens: 1 } },
    { name: "neither given: both omitted", extra: {}, sent: {} },
  ])("temperature and max_tokens: $name, on every call of the request", async ({ extra, sent }) => {
    const { gateway, service } = await startWithGateway();
    // A re-ask, a retry with feedback and a plain answer: four calls.
    gateway.script.replyWith([
      "not json",
      claimsContent({ claim: "x", quote: "nowhere", source: "report" }),
      claimsContent(),
      "Plain.",
    ]);

    const response = await service.post("/v1/verified", {
      ...createBody,
      ...extra,
      retry: 1,
      allow_ungrounded: true,
    });

    expect(response.status).toBe(200);
    expect(gateway.calls).toHaveLength(4);
    for (const call of gateway.calls) {
      const body = chatBody(call);
      expect({ temperature: body.temperature, max_tokens: body.max_tokens }).toEqual({
        temperature: undefined,
        max_tokens: undefined,
        ...sent,
      });
      expect(Object.keys(body).sort()).toEqual(
        [
          "model",
          "messages",
          ...Object.keys(sent),
          ...(body.response_format ? ["response_format"] : []),
        ].sort(),
      );
    }
  });

  it("extract: the fields output schema, one property per requested field", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([JSON.stringify({ fields: { city: { value: "Lyon", source: "report" } } })]);
    const schema = { city: "The city it was founded in", staff: "Number of employees" };

    const response = await service.post("/v1/verified/extract", {
      model: "gpt-test",
      sources: [report],
      schema,
    });

    expect(response.status).toBe(200);
    expect(chatBody(gateway.calls[0])).toEqual({
      model: "gpt-test",
      messages: [
        instructionsWith('<source id="report">', report.text),
        {
          role: "user",
          content: 'Fields:\n- "city": The city it was founded in\n- "staff": Number of employees',
        },
      ],
      response_format: {
        type: "json_schema",
        json_schema: { name: "verified_fields", schema: fieldsOutputSchema(["city", "staff"]), strict: true },
      },
    });
  });

  it("eval: each case is a create-style call with its own sources", async () => {
    const { gateway, service } = await startWithGateway();
    const other = { id: "other", text: "Contoso is based in Oslo." };

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      cases: [
        { messages: question, sources: [report] },
        { messages: [{ role: "user", content: "Where is Contoso?" }], sources: [other] },
      ],
    });

    expect(response.status).toBe(200);
    const bodies = gateway.calls.map(chatBody).sort((a, b) => a.messages.length - b.messages.length);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body.response_format).toEqual(claimsFormat);
    const byQuestion = new Map(bodies.map((body) => [body.messages.at(-1)?.content, body]));
    expect(byQuestion.get("How did Northwind do in 2024?")?.messages[0]).toEqual(
      instructionsWith(report.text),
    );
    expect(byQuestion.get("Where is Contoso?")?.messages[0]).toEqual(instructionsWith(other.text));
    expect(JSON.stringify(byQuestion.get("Where is Contoso?"))).not.toContain("Northwind");
  });

  it("sends the configured extra headers on every call, plain answers included", async () => {
    const gatewayHeaders = {
      "x-portkey-provider": "openai",
      "cf-aig-authorization": "Bearer cf-token",
      "X-Mixed-Case": "Value",
    };
    const { gateway, service } = await startWithGateway({ gatewayHeaders });
    gateway.script.replyWith([claimsContent(), "Plain."]);

    const response = await service.post(
      "/v1/verified",
      { ...createBody, allow_ungrounded: true },
      { key: "k-1" },
    );

    expect(response.status).toBe(200);
    expect(gateway.calls).toHaveLength(2);
    for (const call of gateway.calls) {
      expect(call.headers).toMatchObject({
        "x-portkey-provider": "openai",
        "cf-aig-authorization": "Bearer cf-token",
        "x-mixed-case": "Value",
        authorization: "Bearer k-1",
      });
    }
  });

  it("a configured Authorization header does not replace the caller's key", async () => {
    const { gateway, service } = await startWithGateway({
      gatewayHeaders: { authorization: "Bearer configured" },
    });
    gateway.script.replyWith([lyon]);

    await service.post("/v1/verified", createBody, { key: "caller-key" });

    expect(gateway.calls[0]?.headers.authorization).toBe("Bearer caller-key");
  });

  it("reads usage from the completion and counts a call that reports none", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([
      completion(claimsContent({ claim: "x", quote: "nowhere", source: "report" }), {
        usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
      }),
      completion(lyon, { usage: null }),
    ]);

    const response = await service.post("/v1/verified", { ...createBody, retry: 1 });

    expect(response.body.usage).toEqual({
      prompt_tokens: 120,
      completion_tokens: 30,
      total_tokens: 150,
      model_calls: 2,
    });
  });
});

describe("response_format fallback", () => {
  it("falls back to json_object when the gateway refuses json_schema, and remembers it for the model", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script((call) =>
      chatBody(call).response_format?.type === "json_schema"
        ? errorReply(400, "response_format json_schema is not supported by this model", {
            param: "response_format",
          })
        : lyon,
    );

    const first = await service.post("/v1/verified", createBody);
    const second = await service.post("/v1/verified", createBody);

    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    // The refused attempt is not a model call the caller pays for.
    expect(first.body.usage.model_calls).toBe(1);
    expect(gateway.calls.map((call) => chatBody(call).response_format)).toEqual([
      claimsFormat,
      { type: "json_object" },
      { type: "json_object" },
    ]);
  });

  it("falls back to no response_format when json_object is refused too", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script((call) =>
      chatBody(call).response_format === undefined
        ? lyon
        : errorReply(400, "response_format is not supported"),
    );

    const response = await service.post("/v1/verified", createBody);

    expect(response.status).toBe(200);
    expect(gateway.calls.map((call) => chatBody(call).response_format?.type)).toEqual([
      "json_schema",
      "json_object",
      undefined,
    ]);
  });
});

describe("caller disconnect", () => {
  /**
   * Starts a POST with node:http and returns a function that drops the connection. (fetch's abort leaves a
   * spare keep-alive connection open that would hold up the server's close for seconds.)
   */
  function startPost(url: string, path: string, body: unknown): () => void {
    const request = httpRequest(`${url}${path}`, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", authorization: "Bearer k" },
    });
    request.on("error", () => undefined);
    request.end(JSON.stringify(body));
    return () => request.destroy();
  }

  it("aborts the gateway call when the caller goes away", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([hangReply()]);

    const hangUp = startPost(service.url, "/v1/verified", createBody);
    await gateway.waitForCalls(1);
    hangUp();

    const call = await gateway.waitForClientClose(0);
    expect(call.closedByClient).toBe(true);
  });

  it("aborts every case's gateway call when an eval caller goes away", async () => {
    const { gateway, service } = await startWithGateway({ config: { evalConcurrency: 3 } });
    gateway.script(() => hangReply());

    const hangUp = startPost(service.url, "/v1/verified/eval", {
      model: "gpt-test",
      cases: Array.from({ length: 5 }, () => ({ messages: question, sources: [report] })),
    });
    await gateway.waitForCalls(3);
    hangUp();

    await Promise.all([0, 1, 2].map((index) => gateway.waitForClientClose(index)));
    // Queued cases never reach the gateway.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(gateway.calls).toHaveLength(3);
  });
});
