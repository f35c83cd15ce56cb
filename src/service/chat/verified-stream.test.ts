import { describe, expect, it } from "vitest";
import { MAX_ANSWER_CHARS } from "../../limits.js";
import { verifiedChatStream } from "./verified-stream.js";

const encoder = new TextEncoder();
const found = {
  from: "verification" as const,
  sources: [{ id: "report", text: "Northwind was founded in 2016 in Lyon." }],
};

async function* events(texts: readonly string[]): AsyncGenerator<Uint8Array> {
  const chunk = (choices: unknown[]) =>
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 7, model: "m", choices })}\n\n`;
  for (const text of texts)
    yield encoder.encode(chunk([{ index: 0, delta: { content: text }, finish_reason: null }]));
  yield encoder.encode(`${chunk([{ index: 0, delta: {}, finish_reason: "stop" }])}data: [DONE]\n\n`);
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of stream) out.push(piece);
  return out;
}

describe("verifiedChatStream", () => {
  it("relays each event as written, then the report chunk with the stream's id, created and model, then [DONE]", async () => {
    const out = await collect(
      verifiedChatStream(events(["Northwind was founded ", "in 2016 in Lyon [report]."]), {
        found,
        verification: {},
        messages: [],
      }),
    );
    expect(out).toHaveLength(5);
    expect(out.at(-1)).toBe("data: [DONE]\n\n");
    const report = JSON.parse((out.at(-2) as string).slice("data: ".length));
    expect(report).toMatchObject({
      id: "c1",
      created: 7,
      model: "m",
      choices: [],
      verification: { verdict: "pass" },
    });
  });

  it("ends an answer longer than check's limit with a gateway_error event, not a report", async () => {
    const piece = "a".repeat(64 * 1024);
    const texts = Array.from({ length: Math.ceil(MAX_ANSWER_CHARS / piece.length) + 1 }, () => piece);
    for (const hold of [false, true]) {
      const out = await collect(
        verifiedChatStream(events(texts), { found, verification: { hold }, messages: [] }),
      );
      const last = JSON.parse((out.at(-1) as string).slice("data: ".length));
      expect(last.error).toMatchObject({ type: "gateway_error" });
      expect(out.join("")).not.toContain('"verification"');
    }
  });
});
