import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import {
  completion,
  completionBody,
  errorReply,
  jsonReply,
  sseChunks,
  streamReply,
} from "../support/scripted-gateway.js";
import { chatBody, question, report, startWithGateway, startWithoutGateway } from "./harness.js";

// POST /v1/chat/completions through the official `openai` package, against the running service with the
// scripted gateway behind it: the passthrough keeps both bodies as sent, and `verification` adds a report.

const grounded = "Northwind was founded in 2016 in Lyon [report]. It employs 240 people [report].";
const ungrounded = "Northwind was founded in 2016 in Lyon [report]. It has offices in Tokyo [report].";

/** Params with the service's own `verification` field, which the openai package sends as given. */
function verified<T extends object>(params: T, verification: object): T {
  return { ...params, verification } as T;
}

function client(url: string, apiKey = "sk-test-key") {
  return new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0 });
}

describe("POST /v1/chat/completions: passthrough", () => {
  it("sends the body as the caller wrote it, unknown fields kept, and returns the gateway's answer unchanged", async () => {
    const { gateway, service } = await startWithGateway();
    const upstream = { ...completionBody("Hello."), system_fingerprint: "fp_1", x_vendor: { kept: true } };
    gateway.script.replyWith([jsonReply(upstream)]);
    const request = {
      model: "gpt-4o-mini",
      messages: [...question],
      temperature: 0.3,
      x_custom: { nested: [1, 2] },
    };
    const response = await fetch(`${service.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-test-key" },
      body: JSON.stringify(request),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(upstream);
    expect(response.headers.get("x-request-id")).not.toBeNull();
    expect(chatBody(gateway.calls[0])).toEqual(request);
    expect(gateway.calls[0]?.headers.authorization).toBe("Bearer sk-test-key");
  });

  it("answers the openai package's create with the gateway's completion", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([completion("Hello there.")]);
    const result = await client(service.url).chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(result.choices[0]?.message.content).toBe("Hello there.");
    expect(result.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect("verification" in result).toBe(false);
  });

  it("relays a stream event by event, byte for byte", async () => {
    const { gateway, service } = await startWithGateway();
    const pieces = sseChunks("Northwind was founded in 2016.");
    gateway.script.replyWith([streamReply(pieces)]);
    const response = await fetch(`${service.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer k" },
      body: JSON.stringify({ model: "m", messages: [...question], stream: true }),
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(await response.text()).toBe(pieces.join(""));
  });

  it("streams through the openai package: every chunk as the gateway sent it", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([streamReply(sseChunks("Lyon is in France."))]);
    const stream = await client(service.url).chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Where is Lyon?" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("Lyon is in France.");
    expect(usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(chatBody(gateway.calls[0])).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("passes the caller's traceparent to the gateway and answers with the request id", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([completion("Hello.")]);
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const response = await service.post(
      "/v1/chat/completions",
      { model: "m", messages: [...question] },
      { headers: { traceparent, "x-request-id": "req-chat-1" } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("req-chat-1");
    expect(response.headers.get("server-timing")).toMatch(/^gateway;dur=/);
    expect(gateway.calls[0]?.headers.traceparent).toBe(traceparent);
  });

  it("holds the body to check's limit", async () => {
    const { service } = await startWithGateway();
    const response = await service.post("/v1/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "x".repeat(8 * 1024 * 1024) }],
    });
    expect(response.status).toBe(413);
    expect(response.body.error.type).toBe("payload_too_large");
  });

  it("counts verifications by action and verdict in /metrics", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([completion(ungrounded)]);
    await service.post("/v1/chat/completions", {
      model: "m",
      messages: [...question],
      verification: { sources: [report], action: "remove" },
    });
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toContain(
      'verified_chat_verifications_total{route="/v1/chat/completions",action="remove",verdict="fail"} 1',
    );
  });

  it("passes the gateway's error on with its status and body, which the openai package throws", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([
      errorReply(429, "Rate limit reached for requests.", { code: "rate_limit_exceeded" }),
    ]);
    const error = await client(service.url)
      .chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).message).toContain("Rate limit reached");
  });
});

describe("POST /v1/chat/completions: verification", () => {
  const verification = { sources: [report] };

  /** The openai package's create, verified, against a gateway that answers `content`. */
  async function answerWith(content: string, options: Record<string, unknown> = {}) {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([completion(content)]);
    const result = client(service.url).chat.completions.create(
      verified({ model: "gpt-4o-mini", messages: [...question] }, { ...verification, ...options }),
    );
    return { gateway, result };
  }

  it("adds a top-level verification report to the completion, the answer unchanged", async () => {
    const { gateway, result: answer } = await answerWith(ungrounded);
    const result = await answer;
    expect(result.choices[0]?.message.content).toBe(ungrounded);
    const report_ = (result as unknown as { verification: Record<string, unknown> }).verification;
    expect(report_).toMatchObject({
      verdict: "fail",
      action: "score",
      sources_from: "verification",
      text: "Northwind was founded in 2016 in Lyon [report].",
      coverage: 0.5,
      abstained: false,
    });
    expect(report_.citations).toEqual([
      expect.objectContaining({
        source: "report",
        quote: "Northwind was founded in 2016 in Lyon.",
        answer_range: [0, 47],
      }),
    ]);
    expect(report_.unsupported).toEqual([
      expect.objectContaining({
        claim: "It has offices in Tokyo.",
        reason: "entity_not_found",
        answer_range: [48, ungrounded.length],
      }),
    ]);
    // The gateway never sees the service's own field.
    expect(chatBody(gateway.calls[0])).not.toHaveProperty("verification");
  });

  it("passes the partial policy through: kept words in the report's partial, or the claim dropped", async () => {
    const partlySupported = "Northwind was founded in 2016 in Lyon by two engineers [report].";
    const kept = await (await answerWith(partlySupported)).result;
    const keptReport = (kept as unknown as { verification: Record<string, unknown> }).verification;
    expect(keptReport).toMatchObject({ verdict: "pass", unsupported: [] });
    expect(keptReport.partial).toEqual(
      expect.arrayContaining([expect.objectContaining({ term: "engineers" })]),
    );
    const dropped = await (await answerWith(partlySupported, { partial: "drop" })).result;
    expect((dropped as unknown as { verification: Record<string, unknown> }).verification).toMatchObject({
      verdict: "fail",
      partial: [],
      unsupported: [expect.objectContaining({ reason: "partial_support" })],
    });
  });

  it("with action remove, cuts the unsupported sentences from the content", async () => {
    const { result: answer } = await answerWith(ungrounded, { action: "remove" });
    const result = await answer;
    expect(result.choices[0]?.message.content).toBe("Northwind was founded in 2016 in Lyon [report].");
  });

  it("with action block, fails an unsupported answer with 422 whose error holds the report", async () => {
    const { result: answer } = await answerWith(ungrounded, { action: "block" });
    const error = await answer.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    const body = (error as InstanceType<typeof OpenAI.APIError>).error as Record<string, unknown>;
    expect(body).toMatchObject({ type: "ungrounded", verification: { verdict: "fail", coverage: 0.5 } });
  });

  it("passes a grounded answer, and adds the citation instruction to the system prompt with instruct", async () => {
    const { gateway, result: answer } = await answerWith(grounded, { action: "block", instruct: true });
    const result = await answer;
    expect((result as unknown as { verification: { verdict: string } }).verification.verdict).toBe("pass");
    const sent = chatBody(gateway.calls[0]);
    expect(sent.messages[0]).toEqual({ role: "system", content: expect.stringContaining(report.text) });
    expect(sent.messages.slice(1)).toEqual([...question]);
  });

  it("streams the content as it comes, then one chunk with choices [] and the report before [DONE]", async () => {
    const { gateway, service } = await startWithGateway();
    const pieces = sseChunks(ungrounded);
    gateway.script.replyWith([streamReply(pieces)]);
    const stream = await client(service.url).chat.completions.create(
      verified(
        {
          model: "gpt-4o-mini",
          messages: [...question],
          stream: true,
        },
        verification,
      ),
    );
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1) as unknown as Record<string, unknown>;
    expect(last).toMatchObject({ id: "chatcmpl-scripted", object: "chat.completion.chunk", choices: [] });
    expect(last.verification).toMatchObject({ verdict: "fail", coverage: 0.5 });
    expect(
      chunks
        .slice(0, -1)
        .map((chunk) => chunk.choices[0]?.delta.content ?? "")
        .join(""),
    ).toBe(ungrounded);
    expect(chunks.length).toBe(pieces.length);
  });

  it("reaches the report through the openai package's stream helper too", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([streamReply(sseChunks(grounded))]);
    let report_: unknown;
    const runner = client(service.url)
      .chat.completions.stream(
        verified(
          {
            model: "gpt-4o-mini",
            messages: [...question],
          },
          verification,
        ),
      )
      .on("chunk", (chunk) => {
        const extra = (chunk as unknown as { verification?: unknown }).verification;
        if (extra !== undefined) report_ = extra;
      });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(grounded);
    expect(report_).toMatchObject({ verdict: "pass", coverage: 1 });
  });

  it("gives the report's ranges in the unit verification.offsets asks for", async () => {
    const { gateway, service } = await startWithGateway();
    const emoji = { id: "e", text: "😀 Northwind was founded in 2016 in Lyon." };
    gateway.script.replyWith([completion("😀 Northwind was founded in 2016 in Lyon [e].")]);
    const ask = (offsets: string) =>
      service.post("/v1/chat/completions", {
        model: "m",
        messages: [...question],
        verification: { sources: [emoji], offsets },
      });
    const utf16 = (await ask("utf16")).body.verification.citations[0];
    gateway.script.replyWith([completion("😀 Northwind was founded in 2016 in Lyon [e].")]);
    const codepoint = (await ask("codepoint")).body.verification.citations[0];
    expect([utf16.range, utf16.answer_range]).toEqual([
      [0, emoji.text.length],
      [0, emoji.text.length + 4],
    ]);
    expect([codepoint.range, codepoint.answer_range]).toEqual([
      [0, emoji.text.length - 1],
      [0, emoji.text.length + 3],
    ]);
  });

  it("verifies the built-in local model's answer with no gateway at all", async () => {
    const service = await startWithoutGateway();
    const result = await client(service.url).chat.completions.create(
      verified(
        {
          model: "local",
          messages: [{ role: "user", content: "When was Northwind founded?" }],
        },
        verification,
      ),
    );
    expect(result.object).toBe("chat.completion");
    expect((result as unknown as { verification: { verdict: string } }).verification.verdict).toBe("pass");
  });
});
