// `verified.chat.completions.create` against the real service (the Fastify app over HTTP on 127.0.0.1) with
// the built-in local model: camelCase in and out, streamed and not, the report typed.
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelBackend } from "../models/create-model.js";
import type { ModelBackend } from "../models/types.js";
import { createApp } from "../server/app.js";
import { defaultServerConfig } from "../server/config.js";
import { UngroundedError } from "./errors.js";
import type { ChatCompletionChunk } from "./types.js";
import { Verified } from "./verified.js";

const policy = {
  id: "policy",
  text: "Refunds are accepted within 30 days of purchase. Items must be unused.",
};
const messages = [{ role: "user", content: "Are refunds accepted within 30 days of purchase?" }];

let app: FastifyInstance;
let verified: Verified;

beforeAll(async () => {
  const local = createModelBackend({ gatewayURL: undefined, gatewayHeaders: {}, gatewayTimeoutMs: 5_000 });
  // Model "liar" answers with a number no source holds; every other id is the local model.
  const gateway: ModelBackend = {
    generate: (request) =>
      request.model === "liar"
        ? Promise.resolve({
            content: "Refunds are accepted within 90 days of purchase [policy].",
            usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
          })
        : local.generate({ ...request, model: "local" }),
    needsCallerKey: () => false,
  };
  app = await createApp({ gateway, config: defaultServerConfig });
  await app.listen({ host: "127.0.0.1", port: 0 });
  verified = new Verified({ baseURL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` });
});

afterAll(async () => {
  await app.close();
});

describe("verified.chat.completions.create", () => {
  it("returns the completion with its camelCase verification report", async () => {
    const completion = await verified.chat.completions.create({
      model: "local",
      messages,
      maxTokens: 200,
      verification: { sources: [policy], minCoverage: 1 },
    });
    expect(completion.object).toBe("chat.completion");
    const content = completion.choices[0]?.message.content ?? "";
    expect(content).toContain("[policy]");
    expect(completion.choices[0]?.finishReason).toBe("stop");
    expect(completion.verification).toMatchObject({
      verdict: "pass",
      sourcesFrom: "verification",
      coverage: 1,
      abstained: false,
      unsupported: [],
    });
    expect(completion.verification?.citations[0]?.answerRange?.[0]).toBe(0);
  });

  it("streams chunks, and finalResult() is the report of the chunk before [DONE]", async () => {
    const stream = verified.chat.completions.create({
      model: "local",
      messages,
      stream: true,
      verification: { sources: [policy] },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const report = await stream.finalResult();
    expect(report).toMatchObject({ verdict: "pass", sourcesFrom: "verification" });
    expect(chunks.at(-1)?.verification).toEqual(report);
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toContain("[policy]");
  });

  it("resolves finalResult() to undefined for a stream that asked for no verification", async () => {
    const stream = verified.chat.completions.create({ model: "local", messages, stream: true });
    expect(await stream.finalResult()).toBeUndefined();
  });

  it("throws UngroundedError with the report when action block fails the answer", async () => {
    const error = await verified.chat.completions
      .create({
        model: "liar",
        messages,
        verification: { sources: [policy], action: "block" },
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UngroundedError);
    expect((error as UngroundedError).verification).toMatchObject({
      verdict: "fail",
      sourcesFrom: "verification",
    });
  });
});
