import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { streamReply } from "../support/scripted-gateway.js";
import { question, report, startWithGateway } from "./harness.js";

// Streamed verification through the openai package: content relayed as the gateway sends it (or, with
// `hold`, each sentence once checked), and the report on one more chunk before [DONE]. The gateway is held
// between pieces, so what the caller has before the gateway goes on is asserted without any timing.

const founded = "Northwind was founded in 2016 in Lyon [report].";
const tokyo = " It has offices in Tokyo [report].";
const staff = " It employs 240 people [report].";

/** The SSE pieces of a streamed completion: a role chunk, one chunk per text, the finish, usage and [DONE]. */
function pieces(texts: string[]): string[] {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id: "chatcmpl-held", object: "chat.completion.chunk", created: 1, model: "m", choices, ...extra })}\n\n`;
  return [
    chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]),
    ...texts.map((text) => chunk([{ index: 0, delta: { content: text }, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
    chunk([], { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }),
    "data: [DONE]\n\n",
  ];
}

/** A gateway that streams `texts`, stopping before piece `held` until `release()`. */
async function heldGateway(texts: string[], held: number) {
  const { gateway, service } = await startWithGateway();
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  gateway.script(() =>
    streamReply(pieces(texts), { gate: (index) => (index === held ? gate : Promise.resolve()) }),
  );
  const openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: "sk-test", maxRetries: 0 });
  return { openai, release: () => release() };
}

/** Reads chunks until `until` holds for the content read so far; returns the chunks read. */
async function readUntil(
  iterator: AsyncIterator<OpenAI.ChatCompletionChunk>,
  until: (content: string) => boolean,
  seen: OpenAI.ChatCompletionChunk[],
): Promise<string> {
  for (;;) {
    const content = seen.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    if (until(content)) return content;
    const step = await iterator.next();
    if (step.done === true) return content;
    seen.push(step.value);
  }
}

function create(openai: OpenAI, verification: Record<string, unknown>) {
  return openai.chat.completions.create({
    model: "gpt-4o-mini",
    messages: [...question],
    stream: true,
    ...({ verification: { sources: [report], ...verification } } as object),
  });
}

describe("POST /v1/chat/completions: streamed verification", () => {
  it("relays content before the gateway has finished, then the report chunk before [DONE]", async () => {
    const { openai, release } = await heldGateway([founded, tokyo], 2);
    const iterator = (await create(openai, {}))[Symbol.asyncIterator]();
    const seen: OpenAI.ChatCompletionChunk[] = [];
    expect(await readUntil(iterator, (content) => content === founded, seen)).toBe(founded);
    release();
    await readUntil(iterator, () => false, seen);
    expect(seen.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(founded + tokyo);
    const last = seen.at(-1) as unknown as { choices: unknown[]; verification: Record<string, unknown> };
    expect(last.choices).toEqual([]);
    expect(last.verification).toMatchObject({ verdict: "fail", coverage: 0.5 });
    expect(seen.at(-2)?.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
  });

  it("with hold and remove, sends each sentence once checked and never the unsupported one", async () => {
    // Held before the third sentence: the first is closed (the second began), checked and sent; the second
    // (unsupported) is closed only when the third begins.
    const { openai, release } = await heldGateway([founded, tokyo, staff], 3);
    const iterator = (await create(openai, { hold: true, action: "remove" }))[Symbol.asyncIterator]();
    const seen: OpenAI.ChatCompletionChunk[] = [];
    // A sentence is sent with the space before the next, once the next has begun.
    expect(await readUntil(iterator, (content) => content.length > 0, seen)).toBe(`${founded} `);
    release();
    const content = await readUntil(iterator, () => false, seen);
    expect(content).toBe(founded + staff);
    expect(content).not.toContain("Tokyo");
    const last = seen.at(-1) as unknown as { verification: Record<string, unknown> };
    expect(last.verification).toMatchObject({ verdict: "fail", text: `${founded}${staff}` });
    // The finish and usage chunks come after the held text.
    expect(seen.at(-3)?.choices[0]?.finish_reason).toBe("stop");
  });

  it("with hold and block, sends nothing after the first unsupported sentence and ends with an error", async () => {
    const { openai, release } = await heldGateway([founded, tokyo, staff], 3);
    const iterator = (await create(openai, { hold: true, action: "block" }))[Symbol.asyncIterator]();
    const seen: OpenAI.ChatCompletionChunk[] = [];
    // A sentence is sent with the space before the next, once the next has begun.
    expect(await readUntil(iterator, (content) => content.length > 0, seen)).toBe(`${founded} `);
    release();
    const error = await readUntil(iterator, () => false, seen).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      type: "ungrounded",
      verification: { verdict: "fail" },
    });
    expect(seen.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(`${founded} `);
  });

  it.each([
    ["breaks off (a reset connection)", "reset"],
    ["closes its stream before the answer's end (no finish_reason, no [DONE])", "close"],
  ] as const)("ends with an error the openai package throws when the gateway %s", async (_name, end) => {
    const { gateway, service } = await startWithGateway();
    // The role chunk and the first sentence, then the gateway stops.
    gateway.script(() => streamReply(pieces([founded, tokyo]).slice(0, 2), { end }));
    const openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: "sk-test", maxRetries: 0 });
    const iterator = (await create(openai, {}))[Symbol.asyncIterator]();
    const seen: OpenAI.ChatCompletionChunk[] = [];
    const error = await readUntil(iterator, () => false, seen).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({ type: "gateway_error" });
    expect(seen.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(founded);
    expect(seen.some((chunk) => "verification" in chunk)).toBe(false);
  });
});
