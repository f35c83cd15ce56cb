import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "../errors/service-error.js";
import { createLocalModel } from "../models/local/local-model.js";
import type { ModelBackend } from "../models/types.js";
import { sampleQuestion, sampleSources } from "../sample.js";
import { createApp } from "../server/app.js";
import { defaultServerConfig } from "../server/config.js";
import { AuthenticationError, UngroundedError } from "./errors.js";
import { type CreateStreamEvent, type EvalStreamEvent, readEventStream } from "./stream.js";
import { Verified } from "./verified.js";

// `verified.stream` and `verified.evalStream` against the real service (the Fastify app over HTTP on
// 127.0.0.1) with the built-in local model and an in-process gateway whose behaviour the model id picks.

const local = createLocalModel();
/** `local` is the local model; `liar` streams one invented claim; `refused` fails before any text. */
const gateway: ModelBackend = {
  async generate(request) {
    if (request.model === "refused") throw new ServiceError("invalid_key");
    if (request.model === "liar") {
      const content = JSON.stringify({
        claims: [{ claim: "Made up.", quote: "not there", source: "annual-report-2024" }],
      });
      request.stream?.onOpen();
      request.stream?.onText(content);
      return { content, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };
    }
    return local.generate(request);
  },
};

let app: FastifyInstance;
let client: Verified;

beforeAll(async () => {
  app = await createApp({ gateway, config: defaultServerConfig, newId: () => "vfd_test" });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  client = new Verified({ baseURL: `http://127.0.0.1:${port}`, apiKey: "k", maxRetries: 0 });
});

afterAll(() => app.close());

const params = (model = "local") => ({
  model,
  messages: [{ role: "user" as const, content: sampleQuestion }],
  sources: sampleSources,
});

describe("verified.stream", () => {
  it("yields typed claim events, then done with the same result create returns", async () => {
    const result = await client.create(params());
    const events: CreateStreamEvent[] = [];

    const stream = client.stream(params());
    for await (const event of stream) events.push(event);

    expect(events).toEqual([
      ...result.citations.map((citation) => ({ type: "claim", citation })),
      { type: "done", result },
    ]);
    expect(result.usage.modelCalls).toBe(1);
    await expect(stream.finalResult()).resolves.toEqual(result);
  });

  it("finalResult() alone reads the stream to its end", async () => {
    const result = await client.create(params());

    await expect(client.stream(params()).finalResult()).resolves.toEqual(result);
  });

  it("throws the typed error of an error event, after the events before it", async () => {
    const events: CreateStreamEvent[] = [];
    const stream = client.stream(params("liar"));

    const reading = (async () => {
      for await (const event of stream) events.push(event);
    })();

    await expect(reading).rejects.toBeInstanceOf(UngroundedError);
    await expect(stream.finalResult()).rejects.toBeInstanceOf(UngroundedError);
    expect(events).toEqual([
      {
        type: "unsupported",
        unsupported: {
          claim: "Made up.",
          reason: "quote_not_found",
          quote: "not there",
          source: "annual-report-2024",
        },
      },
    ]);
  });

  it("rejects with the typed error of a JSON error before the stream opened", async () => {
    await expect(client.stream(params("refused")).finalResult()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("can be read only once", async () => {
    const stream = client.stream(params());
    await stream.finalResult();
    expect(() => stream[Symbol.asyncIterator]()).toThrow("only once");
  });
});

describe("verified.evalStream", () => {
  it("yields a case event per case, then done with the same result eval returns", async () => {
    const cases = [0, 1, 2].map(() => ({ messages: params().messages, sources: sampleSources }));
    const result = await client.eval({ model: "local", cases });
    const events: EvalStreamEvent[] = [];

    for await (const event of client.evalStream({ model: "local", cases })) events.push(event);

    const caseEvents = events.filter((event) => event.type === "case");
    expect(caseEvents.map((event) => event.index).sort()).toEqual([0, 1, 2]);
    for (const event of caseEvents) expect(event.result).toEqual(result.cases[event.index]);
    expect(events.at(-1)).toEqual({ type: "done", result });
  });
});

function body(text: string, cuts: readonly number[] = []): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const points = [...cuts, bytes.byteLength];
  return new ReadableStream({
    start(controller) {
      let from = 0;
      for (const point of points) {
        controller.enqueue(bytes.subarray(from, point));
        from = point;
      }
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>) {
  const events = [];
  for await (const event of readEventStream(stream)) events.push(event);
  return events;
}

describe("readEventStream", () => {
  const text =
    ': keep-alive\n\nevent: claim\ndata: {"claim": "Grüße ✓"}\n\r\nevent: done\r\ndata: {"a":\rdata: 1}\r\rdata:x\n\nevent: cut\ndata: {"half';

  it("reads named events, comments, multi-line data and every line ending, and drops a cut event", async () => {
    expect(await all(body(text))).toEqual([
      { event: "claim", data: '{"claim": "Grüße ✓"}' },
      { event: "done", data: '{"a":\n1}' },
      { event: "message", data: "x" },
    ]);
  });

  it("gives the same events whatever byte the body is cut at", async () => {
    const whole = await all(body(text));
    const length = new TextEncoder().encode(text).byteLength;
    for (let cut = 0; cut <= length; cut += 1) expect(await all(body(text, [cut]))).toEqual(whole);
  });
});
