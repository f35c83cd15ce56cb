import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { completionBody, errorReply, htmlReply } from "../support/scripted-gateway.js";
import { question, report, startWithGateway, startWithoutGateway } from "./harness.js";

// The drop-in's edges: which choice is "the first", and a gateway answer that is not UTF-8.

const grounded = "Northwind was founded in 2016 in Lyon [report].";
const ungrounded = `${grounded} It has offices in Tokyo [report].`;

describe("the first choice", () => {
  it("is the choice with index 0, or the first when choices carry no index: the Portkey guardrail's remove changes only it", async () => {
    const service = await startWithoutGateway();
    const completion = {
      ...completionBody(ungrounded),
      choices: [
        { finish_reason: "stop", message: { role: "assistant", content: ungrounded } },
        { finish_reason: "stop", message: { role: "assistant", content: "Another answer." } },
      ],
    };
    const response = await service.post("/v1/guardrails/portkey?action=remove", {
      request: { json: { model: "m", messages: [...question], verification: { sources: [report] } } },
      response: { json: completion, statusCode: 200 },
      eventType: "afterRequestHook",
    });
    expect(response.status).toBe(200);
    const transformed = response.body.transformedData.response.json;
    expect(
      transformed.choices.map((choice: { message: { content: string } }) => choice.message.content),
    ).toEqual([grounded, "Another answer."]);
  });
});

describe("a gateway answer that is not UTF-8", () => {
  it("is refused as gateway_error naming the byte, not checked with U+FFFD in place", async () => {
    const { gateway, service } = await startWithGateway();
    const body = Buffer.from(JSON.stringify(completionBody(`${grounded} Caf\u00e9.`)));
    // The é (0xc3 0xa9) loses its second byte: 0xc3 then a quote.
    const bad = Buffer.from(body.toString("latin1").replace("\u00c3\u00a9", "\u00c3"), "latin1");
    const offset = bad.indexOf(0xc3);
    gateway.script(() => ({ kind: "text", status: 200, text: bad, contentType: "application/json" }));
    const response = await service.post("/v1/chat/completions", {
      model: "gpt-4o-mini",
      messages: [...question],
      verification: { sources: [report] },
    });
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({
      type: "gateway_error",
      message: `The gateway's answer is not valid UTF-8: the byte at offset ${offset} (0xc3) does not belong to a UTF-8 character, so it could not be checked.`,
    });
  });
});

describe("a relayed refusal", () => {
  const hint =
    'The call to gateway "default" carried no key: set VERIFIED_GATEWAY_KEY on the service (with VERIFIED_API_KEYS) or api_key_env for the gateway in the config file, or, on a service without VERIFIED_API_KEYS, send the provider\'s key as "Authorization: Bearer <key>".';

  it("keeps the gateway's status and body, its message create's, with the hint when the call carried no key", async () => {
    const { gateway, service } = await startWithGateway({ config: { apiKeys: ["service-key-1"] } });
    gateway.script(() => errorReply(401, "You didn't provide an API key.", { code: "missing_api_key" }));
    const message = `The gateway refused the API key (HTTP 401 [missing_api_key]: You didn't provide an API key). ${hint}`;
    for (const verification of [undefined, { sources: [report] }]) {
      const response = await service.post(
        "/v1/chat/completions",
        { model: "gpt-4o-mini", messages: [...question], ...(verification ? { verification } : {}) },
        { key: "service-key-1" },
      );
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        error: {
          message,
          type: "invalid_request_error",
          code: "missing_api_key",
          param: null,
          request_id: expect.stringMatching(/^req_/),
        },
      });
    }
    // The openai package throws it as the gateway's own 401 would be thrown.
    const error = await new OpenAI({
      baseURL: `${service.url}/v1`,
      apiKey: "service-key-1",
      maxRetries: 0,
    }).chat.completions
      .create({ model: "gpt-4o-mini", messages: [...question] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toBe(`401 ${message}`);
  });

  it("that is not a JSON error object gets the service's envelope, the gateway's status kept", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => htmlReply(503));
    const response = await service.post("/v1/chat/completions", {
      model: "gpt-4o-mini",
      messages: [...question],
    });
    expect(response.status).toBe(503);
    expect(response.body.error).toMatchObject({ type: "gateway_error", code: "gateway_error" });
    expect(response.body.error.message).toMatch(/^The model gateway answered HTTP 503/);
  });
});
