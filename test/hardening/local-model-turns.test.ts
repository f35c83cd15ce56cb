import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelBackend } from "../../src/models/create-model.js";
import type { ModelBackend } from "../../src/models/types.js";
import { createApp } from "../../src/server/app.js";
import { defaultServerConfig } from "../../src/server/config.js";
import { createRawClient, jsonPost, type RawClient } from "./raw-client.js";

// Row b of issue 11: the local model must not hold the event loop. The service runs in this process, so while
// it computes, nothing else here runs either, this test's HTTP client included. The gateway is wrapped only
// to know when local model calls are under way; a /healthz answer the client receives while one is under way
// proves the event loop turned in the middle of local work. Before the fix the local model computed each call
// in one synchronous stretch, and an eval's cases back to back in microtasks: no answer could ever arrive then
// (0, deterministically). Counting answers rather than timing them keeps the test free of clocks.

let app: FastifyInstance;
let client: RawClient;
let probes: RawClient;
let localCallsUnderWay = 0;

beforeAll(async () => {
  const engine = createModelBackend({ gatewayURL: undefined, gatewayHeaders: {}, gatewayTimeoutMs: 5_000 });
  const observed: ModelBackend = {
    async generate(request) {
      localCallsUnderWay += 1;
      try {
        return await engine.generate(request);
      } finally {
        localCallsUnderWay -= 1;
      }
    },
  };
  app = await createApp({ gateway: observed, config: defaultServerConfig });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  client = createRawClient(url);
  probes = createRawClient(url, { maxSockets: 1 });
});

afterAll(async () => {
  await client?.close();
  await probes?.close();
  await app?.close();
});

/** Sends `request` and probes /healthz one after another until it is answered; counts probes answered mid-call. */
async function probeWhile(path: string, body: unknown) {
  let finished = false;
  let answeredDuringLocalWork = 0;
  const main = client.send(jsonPost(path, body, { timeoutMs: 120_000 })).finally(() => {
    finished = true;
  });
  const probing = (async () => {
    while (!finished) {
      const health = await probes.send({ method: "GET", path: "/healthz", timeoutMs: 120_000 });
      expect(health.status).toBe(200);
      if (localCallsUnderWay > 0) answeredDuringLocalWork += 1;
    }
  })();
  const [response] = await Promise.all([main, probing]);
  return { response, answeredDuringLocalWork };
}

/** `length` CJK characters, a full stop every 40 (about 2,500 sentences per 100,000 characters). */
function cjk(length: number, seed: number): string {
  let text = "";
  for (let index = 0; index < length; index++) {
    text += index % 40 === 39 ? "。" : String.fromCharCode(0x4e00 + ((index * 7919 + seed) % 20_000));
  }
  return text;
}

describe("(b) /healthz is answered while the local model works", () => {
  it("an eval of 4 cases of 100,000 CJK characters each", async () => {
    const cases = [1, 2, 3, 4].map((seed) => {
      const text = cjk(100_000, seed);
      return {
        messages: [{ role: "user", content: `什么是${text.slice(400, 430)}？` }],
        sources: [{ id: "doc", text }],
      };
    });
    const { response, answeredDuringLocalWork } = await probeWhile("/v1/verified/eval", {
      model: "local",
      cases,
    });
    expect(response.status).toBe(200);
    expect(response.json.aggregate.n).toBe(4);
    expect(answeredDuringLocalWork).toBeGreaterThan(0);
  }, 120_000);

  it("an extract of 20 fields with 19.6 KB descriptions", async () => {
    const description = "the word of the field ".repeat(900).slice(0, 19_600);
    const schema = Object.fromEntries(
      Array.from({ length: 20 }, (_, index) => [`field_${index}`, description]),
    );
    const text = Array.from({ length: 2_000 }, (_, index) => `Label ${index}: value ${index}.`).join("\n");
    const { response, answeredDuringLocalWork } = await probeWhile("/v1/verified/extract", {
      model: "local",
      sources: [{ id: "doc", text: text.slice(0, 100_000) }],
      schema,
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.json.fields)).toHaveLength(20);
    expect(answeredDuringLocalWork).toBeGreaterThan(0);
  }, 120_000);
});
