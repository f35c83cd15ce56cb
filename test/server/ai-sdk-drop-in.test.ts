import { createOpenAICompatible, type MetadataExtractor } from "@ai-sdk/openai-compatible";

import { generateText, type JSONValue, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { completion, sseChunks, streamReply } from "../support/scripted-gateway.js";
import { chatBody, question, report, startWithGateway } from "./harness.js";

// The Vercel AI SDK's OpenAI-compatible provider pointed at the service: `providerOptions` carries
// `verification` into the body, and a metadata extractor surfaces the report, streamed or not.

const ungrounded = "Northwind was founded in 2016 in Lyon [report]. It has offices in Tokyo [report].";

/** Reads `verification` from the completion, or from the stream's chunk that carries it. */
const reportExtractor: MetadataExtractor = {
  extractMetadata: async ({ parsedBody }) => ({
    verified: { report: (parsedBody as { verification?: JSONValue }).verification ?? null },
  }),
  createStreamExtractor: () => {
    let report: JSONValue = null;
    return {
      processChunk(chunk) {
        const found = (chunk as { verification?: JSONValue }).verification;
        if (found !== undefined) report = found;
      },
      buildMetadata: () => ({ verified: { report } }),
    };
  },
};

async function provider() {
  const started = await startWithGateway();
  const verified = createOpenAICompatible({
    name: "verified",
    baseURL: `${started.service.url}/v1`,
    apiKey: "sk-test",
    metadataExtractor: reportExtractor,
  });
  return { ...started, verified };
}

const providerOptions = { verified: { verification: { sources: [{ id: report.id, text: report.text }] } } };

describe("the Vercel AI SDK's OpenAI-compatible provider", () => {
  it("generateText: providerOptions carries verification, the extractor surfaces the report", async () => {
    const { gateway, verified } = await provider();
    gateway.script.replyWith([completion(ungrounded)]);
    const result = await generateText({
      model: verified("gpt-4o-mini"),
      prompt: question[0].content,
      providerOptions,
    });
    expect(result.text).toBe(ungrounded);
    expect(result.providerMetadata?.verified?.report).toMatchObject({ verdict: "fail", coverage: 0.5 });
    expect(chatBody(gateway.calls[0])).not.toHaveProperty("verification");
  });

  it("streamText: the text as it streams, and the report from the chunk before [DONE]", async () => {
    const { gateway, verified } = await provider();
    gateway.script.replyWith([streamReply(sseChunks(ungrounded))]);
    const result = streamText({
      model: verified("gpt-4o-mini"),
      prompt: question[0].content,
      providerOptions,
    });
    let text = "";
    for await (const part of result.textStream) text += part;
    expect(text).toBe(ungrounded);
    expect((await result.providerMetadata)?.verified?.report).toMatchObject({
      verdict: "fail",
      coverage: 0.5,
    });
  });
});
