import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyClaims } from "../../src/core/index.js";
import { CLAIM_CHECK_SLICE_WORK } from "../../src/limits.js";
import { createApp } from "../../src/server/app.js";
import { defaultServerConfig } from "../../src/server/config.js";
import { verifyClaimsYielding } from "../../src/service/index.js";
import { createRawClient, jsonPost, type RawClient } from "./raw-client.js";

// Many distinct near-miss quotes against one large source: each quote alone costs O(n + m), so a check of
// 1,000 of them would cost 1,000 × n (the core now finds such quotes at once, in O(n + Σm)). The service
// checks claims in slices of bounded estimated work (each claim counts its source's length) and gives the
// event loop a turn between slices. Turns are counted, not timed.

const SOURCE = { id: "s", text: "a ".repeat(50_000) };
/** `count` distinct quotes, each a run of the source's words ending in a word the source lacks. */
function nearMisses(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    claim: `claim ${index}`,
    quote: `${"a ".repeat(200 + index)}b`,
    source: "s",
  }));
}

describe("claims are checked in slices with turns of the event loop between them", () => {
  it("verifyClaimsYielding takes a turn per slice of work and returns verifyClaims's result", async () => {
    const claims = nearMisses(100);
    let turns = 0;
    const result = await verifyClaimsYielding([SOURCE], claims, {}, undefined, async () => {
      turns += 1;
    });
    // Each claim costs at least the source's 100,000 characters of work; a slice ends at the budget.
    const perSlice = Math.ceil(CLAIM_CHECK_SLICE_WORK / SOURCE.text.length);
    expect(turns).toBeGreaterThan(0);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(claims.length / (perSlice + 1)));
    expect(result).toEqual(verifyClaims([SOURCE], claims));
    expect(result.unsupported).toHaveLength(100);
  }, 60_000);
});

describe("/healthz is answered while many near-miss quotes are checked", () => {
  let app: FastifyInstance;
  let client: RawClient;
  let probes: RawClient;
  let operationRunning = false;
  let answeredDuringOperation = 0;
  let unsupportedEventsWritten = 0;
  let answeredBetweenEvents = 0;

  beforeAll(async () => {
    // The model answers at once (no turn of the event loop) with 300 near-miss claims and one that holds.
    const content = JSON.stringify({
      claims: [...nearMisses(300), { claim: "a a.", quote: "a a", source: "s" }],
    });
    app = await createApp({
      config: defaultServerConfig,
      gateway: {
        // A streamed call gets the whole reply as one piece, inside the read loop, before the call returns.
        generate: async (request) => {
          request.stream?.onOpen();
          request.stream?.onText(content);
          return { content, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };
        },
      },
    });
    // Server side: an operation runs from its handler (after parsing and validation) until its reply is sent.
    // A synchronous check would leave no turn for a /healthz request in between: the count would be 0.
    const operation = (url: string) => url === "/v1/verified/check" || url === "/v1/verified";
    app.addHook("preHandler", async (request, reply) => {
      if (!operation(request.url)) return;
      operationRunning = true;
      // A streamed answer passes no onSend hook: it ends when its last event is written.
      reply.raw.once("finish", () => {
        operationRunning = false;
      });
      const write = reply.raw.write.bind(reply.raw) as (chunk: unknown) => boolean;
      reply.raw.write = ((chunk: unknown) => {
        if (String(chunk).startsWith("event: unsupported")) unsupportedEventsWritten += 1;
        return write(chunk);
      }) as typeof reply.raw.write;
    });
    app.addHook("onSend", async (request) => {
      if (operation(request.url)) operationRunning = false;
    });
    app.addHook("onRequest", async (request) => {
      if (request.url === "/healthz" && operationRunning) answeredDuringOperation += 1;
      // Between the first and the last event of a stream of 300: its claims were not all checked at once.
      if (request.url === "/healthz" && unsupportedEventsWritten > 0 && unsupportedEventsWritten < 300)
        answeredBetweenEvents += 1;
    });
    const url = await app.listen({ host: "127.0.0.1", port: 0 });
    client = createRawClient(url);
    probes = createRawClient(url, { maxSockets: 1 });
  });

  afterAll(async () => {
    await client?.close();
    await probes?.close();
    await app?.close();
  });

  /** Sends `body` to `path` and probes /healthz one after another until it is answered. */
  async function probeWhile(path: string, body: unknown) {
    answeredDuringOperation = 0;
    let finished = false;
    const main = client.send(jsonPost(path, body, { timeoutMs: 120_000 })).finally(() => {
      finished = true;
    });
    const probing = (async () => {
      while (!finished) {
        const health = await probes.send({ method: "GET", path: "/healthz", timeoutMs: 120_000 });
        expect(health.status).toBe(200);
      }
    })();
    const [response] = await Promise.all([main, probing]);
    return { response, answeredDuringOperation };
  }

  it("check: 300 distinct near-miss quotes against a 100,000-character source", async () => {
    const { response, answeredDuringOperation } = await probeWhile("/v1/verified/check", {
      sources: [SOURCE],
      claims: nearMisses(300),
    });
    expect(response.status).toBe(200);
    expect(response.json.unsupported).toHaveLength(300);
    expect(answeredDuringOperation).toBeGreaterThan(0);
  }, 120_000);

  it("streamed create: the model's 301 claims in one piece of its stream, checked off the read loop", async () => {
    const { response } = await probeWhile("/v1/verified", {
      model: "scripted",
      messages: [{ role: "user", content: "What does the source say?" }],
      sources: [SOURCE],
      stream: true,
    });
    expect(response.status).toBe(200);
    const events = [...response.text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(events.filter((name) => name === "unsupported")).toHaveLength(300);
    expect(events.filter((name) => name === "claim")).toHaveLength(1);
    expect(events.at(-1)).toBe("done");
    expect(answeredBetweenEvents).toBeGreaterThan(0);
  }, 120_000);

  it("create with a retry: the model's 301 claims, checked twice", async () => {
    const { response, answeredDuringOperation } = await probeWhile("/v1/verified", {
      model: "scripted",
      messages: [{ role: "user", content: "What does the source say?" }],
      sources: [SOURCE],
      retry: 1,
    });
    expect(response.status).toBe(200);
    expect(response.json.citations).toHaveLength(1);
    expect(response.json.unsupported).toHaveLength(300);
    expect(response.json.usage.model_calls).toBe(2);
    expect(answeredDuringOperation).toBeGreaterThan(0);
  }, 120_000);
});
