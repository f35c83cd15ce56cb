import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  delayed,
  type RecordedCall,
  type ScriptedAnswer,
  type ScriptedGateway,
  startScriptedGateway,
} from "../support/scripted-gateway.js";
import { type RunningService, startService } from "../support/start-service.js";
import { expectRegistryError } from "./expect-response.js";
import { forceGc } from "./process-probes.js";
import {
  createRawClient,
  jsonPost,
  type RawClient,
  type RawRequest,
  type RawResponse,
} from "./raw-client.js";

// 2,000 mixed requests (create, extract and eval through a gateway, create on the local model, check, and bad
// input) at concurrency 64, against a scripted gateway answering after a seeded random 0-50 ms. Every answer
// must be exactly the one expected for its own request (no cross-talk between concurrent requests), there
// must be no unexpected status, and memory must come back near where it started.

const total = 2_000;
const concurrency = 64;

/** mulberry32: a small seeded generator, so every run sends the same requests with the same latencies. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One request and what must come back. */
interface Planned {
  kind: string;
  request: RawRequest;
  status: number;
  /** Checks the body of a response with the expected status. */
  check(response: RawResponse): void;
}

/** The model's answer for each tag (`Q17`, `Q17.2`…) that a question or field description carries. */
const answers = new Map<string, string>();

/** Text ahead of the record in check sources: 60,000 characters, so retaining request bodies would show. */
const padding = Array.from(
  { length: 3_000 },
  (_, index) => `Line ${String(index).padStart(5, "0")} ok. `,
).join("");

const sourceFor = (tag: string, random: () => number, prefix = "") => {
  const year = 1900 + Math.floor(random() * 120);
  const coins = Math.floor(random() * 9_000) + 100;
  return {
    source: {
      id: `doc-${tag}`,
      text: `${prefix}Record ${tag}: the vault opened in ${year}. It holds ${coins} coins.`,
    },
    year: String(year),
    coins: String(coins),
  };
};

const rangeIn = (text: string, quote: string): [number, number] => {
  const start = text.indexOf(quote);
  return [start, start + quote.length];
};

/** A create-style question: one grounded claim, and for some tags one invented claim. */
function planClaims(tag: string, random: () => number) {
  const { source, year } = sourceFor(tag, random);
  const quote = `opened in ${year}`;
  const grounded = { claim: `The vault opened in ${year}.`, quote, source: source.id };
  const invented =
    random() < 0.4 ? [{ claim: "It was robbed.", quote: "was robbed", source: source.id }] : [];
  answers.set(tag, JSON.stringify({ claims: [grounded, ...invented] }));
  return {
    source,
    messages: [{ role: "user", content: `${tag}: when did the vault open?` }],
    citations: [{ ...grounded, range: rangeIn(source.text, quote) }],
    unsupported: invented.map(({ claim, quote, source }) => ({
      claim,
      reason: "quote_not_found",
      quote,
      source,
    })),
    coverage: 1 / (1 + invented.length),
  };
}

const usage = (calls: number) => ({
  prompt_tokens: 10 * calls,
  completion_tokens: 5 * calls,
  total_tokens: 15 * calls,
  model_calls: calls,
});

/** A few local-model bodies, answered once alone before the load; under load the answer must be the same. */
const localBodies = [
  "When did the vault open?",
  "How many coins does it hold?",
  "Where is the vault?",
  "vault coins record",
].map((question, index) => ({
  model: "local",
  messages: [{ role: "user", content: question }],
  sources: [
    { id: "a", text: `Record L${index}: the vault opened in 1931. It holds 4,200 coins. It is in Bern.` },
    { id: "b", text: "Nothing else is known. The archive closed in 1990." },
  ],
}));
const localAnswers: unknown[] = [];

function plan(index: number, random: () => number): Planned {
  const tag = `Q${index}`;
  const roll = random();
  if (roll < 0.3) {
    const expected = planClaims(tag, random);
    return {
      kind: "create",
      request: jsonPost("/v1/verified", {
        model: "gpt-test",
        messages: expected.messages,
        sources: [expected.source],
      }),
      status: 200,
      check: ({ json }) => {
        expect(json.id).toMatch(/^vfd_/);
        expect(json).toMatchObject({
          model: "gpt-test",
          citations: expected.citations,
          unsupported: expected.unsupported,
          coverage: expected.coverage,
          grounded: true,
          abstained: false,
          usage: usage(1),
        });
      },
    };
  }
  if (roll < 0.45) {
    const { source, year, coins } = sourceFor(tag, random);
    answers.set(
      tag,
      JSON.stringify({
        fields: { year: { value: year, source: source.id }, coins: { value: coins, source: source.id } },
      }),
    );
    return {
      kind: "extract",
      request: jsonPost("/v1/verified/extract", {
        model: "gpt-test",
        sources: [source],
        schema: { year: `${tag} the year it opened`, coins: "how many coins" },
      }),
      status: 200,
      check: ({ json }) => {
        expect(json.id).toMatch(/^ext_/);
        expect(json).toMatchObject({
          model: "gpt-test",
          fields: {
            year: { value: year, source: source.id, range: rangeIn(source.text, year), grounded: true },
            coins: { value: coins, source: source.id, range: rangeIn(source.text, coins), grounded: true },
          },
          coverage: 1,
          usage: usage(1),
        });
      },
    };
  }
  if (roll < 0.55) {
    const count = 2 + Math.floor(random() * 4);
    const cases = Array.from({ length: count }, (_, caseIndex) => planClaims(`${tag}.${caseIndex}`, random));
    const claims = cases.reduce((sum, item) => sum + item.citations.length + item.unsupported.length, 0);
    const unsupported = cases.reduce((sum, item) => sum + item.unsupported.length, 0);
    return {
      kind: "eval",
      request: jsonPost("/v1/verified/eval", {
        model: "gpt-test",
        cases: cases.map(({ messages, source }) => ({ messages, sources: [source] })),
      }),
      status: 200,
      check: ({ json }) => {
        expect(json).toEqual({
          aggregate: {
            coverage_mean: cases.reduce((sum, item) => sum + item.coverage, 0) / count,
            unsupported_rate: unsupported / claims,
            n: count,
            errored: 0,
          },
          cases: cases.map((item) => ({
            coverage: item.coverage,
            citations: item.citations.length,
            unsupported: item.unsupported.length,
          })),
          usage: { total_tokens: 15 * count, model_calls: count },
        });
      },
    };
  }
  if (roll < 0.65) {
    const which = Math.floor(random() * localBodies.length);
    return {
      kind: "create on the local model",
      request: jsonPost("/v1/verified", localBodies[which]),
      status: 200,
      check: ({ json }) => {
        expect({ ...json, id: "" }).toEqual(localAnswers[which]);
      },
    };
  }
  if (roll < 0.8) {
    const { source, year, coins } = sourceFor(tag, random, padding);
    return {
      kind: "check",
      request: jsonPost("/v1/verified/check", {
        sources: [source],
        claims: [
          { claim: "Opened.", quote: `opened in ${year}`, source: source.id },
          { claim: "Coins.", quote: `holds ${coins} gold coins`, source: source.id },
        ],
      }),
      status: 200,
      check: ({ json }) => {
        expect(json).toMatchObject({
          citations: [
            {
              claim: "Opened.",
              quote: `opened in ${year}`,
              source: source.id,
              range: rangeIn(source.text, `opened in ${year}`),
            },
          ],
          unsupported: [{ claim: "Coins.", reason: "quote_not_found" }],
          coverage: 0.5,
          usage: { model_calls: 0, total_tokens: 0 },
        });
      },
    };
  }
  const bad: { kind: string; request: RawRequest; status: number; type: string }[] = [
    {
      kind: "bad: not JSON",
      request: jsonPost("/v1/verified", "{oops"),
      status: 400,
      type: "invalid_request",
    },
    {
      kind: "bad: unknown field",
      request: jsonPost("/v1/verified/extract", {
        model: "gpt-test",
        sources: [],
        schema: { a: "b" },
        url: "x",
      }),
      status: 400,
      type: "invalid_request",
    },
    {
      // An open service answers the local model without a key, but not a gateway model.
      kind: "bad: no key",
      request: jsonPost(
        "/v1/verified/eval",
        {
          model: "gpt-test",
          cases: [{ messages: [{ role: "user", content: "q" }], sources: [{ id: "s", text: "t" }] }],
        },
        { key: null },
      ),
      status: 401,
      type: "invalid_key",
    },
    {
      kind: "bad: content type",
      request: jsonPost("/v1/verified/check", "sources=1", { headers: { "content-type": "text/plain" } }),
      status: 415,
      type: "unsupported_media_type",
    },
    { kind: "bad: no such path", request: jsonPost("/v1/verify", {}), status: 404, type: "not_found" },
    {
      kind: "bad: empty sources",
      request: jsonPost("/v1/verified", {
        model: "gpt-test",
        messages: [{ role: "user", content: "x" }],
        sources: [],
      }),
      status: 400,
      type: "no_sources",
    },
    {
      kind: "bad: sources over the budget",
      request: jsonPost("/v1/verified/check", {
        sources: [{ id: "a", text: "z".repeat(100_001) }],
        claims: [],
      }),
      status: 400,
      type: "sources_too_large",
    },
  ];
  const chosen = bad[Math.floor(random() * bad.length)] ?? bad[0];
  if (chosen === undefined) throw new Error("no bad input");
  return { ...chosen, check: ({ status, json }) => expectRegistryError(status, json) };
}

/** The planned answer for a call, found by the tag in the caller's question or a field description. */
function scriptedModel(call: RecordedCall): ScriptedAnswer {
  const messages = (call.body as { messages: { role: string; content: string }[] }).messages;
  const text = messages
    .filter((message) => message.role === "user")
    .map((message) => message.content)
    .join("\n");
  const tag = /\bQ\d+(?:\.\d+)?\b/.exec(text)?.[0] ?? "";
  // The latency is seeded by the tag, so it is the same on every run.
  const latency = Math.floor(seeded(Number(tag.replace(/\D/g, "")) || 1)() * 51);
  return delayed(latency, answers.get(tag) ?? '{"claims": []}');
}

let gateway: ScriptedGateway;
let service: RunningService;
let client: RawClient;

beforeAll(async () => {
  gateway = await startScriptedGateway({ handler: scriptedModel });
  service = await startService({ gatewayURL: gateway.url });
  client = createRawClient(service.url, { maxSockets: concurrency });
});

afterAll(async () => {
  await client?.close();
  await service?.close();
  await gateway?.close();
});

describe("load", () => {
  it(`${total} mixed requests at concurrency ${concurrency}: each answered as planned, memory back near baseline`, {
    timeout: 90_000,
  }, async () => {
    for (const body of localBodies) {
      const alone = await client.send(jsonPost("/v1/verified", body));
      expect(alone.status).toBe(200);
      localAnswers.push({ ...alone.json, id: "" });
    }
    const random = seeded(20_240_601);
    const planned = Array.from({ length: total }, (_, index) => plan(index, random));

    // Warm up (JIT, pools, lazily built structures), then take the baseline.
    for (const item of planned.slice(0, 64)) await client.send(item.request);
    // The scripted gateway records every call; those records are the test's memory, not the service's.
    gateway.calls.splice(0);
    forceGc();
    const before = process.memoryUsage();

    const failures: string[] = [];
    let sent = 0;
    const kinds = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < planned.length) {
        const item = planned[next++];
        if (item === undefined) break;
        kinds.set(item.kind, (kinds.get(item.kind) ?? 0) + 1);
        sent += item.request.body?.length ?? 0;
        const response = await client.send({ ...item.request, timeoutMs: 30_000 });
        try {
          expect(response.status, item.kind).toBe(item.status);
          item.check(response);
        } catch (error) {
          failures.push(`${item.kind}: ${(error as Error).message.slice(0, 500)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));

    expect(failures.slice(0, 5)).toEqual([]);
    expect([...kinds.values()].reduce((sum, count) => sum + count, 0)).toBe(total);
    for (const kind of ["create", "extract", "eval", "check", "create on the local model"]) {
      expect(kinds.get(kind), kind).toBeGreaterThan(50);
    }
    // The load was concurrent: many gateway calls were in flight at once.
    expect(gateway.maxInFlight()).toBeGreaterThanOrEqual(16);
    expect(gateway.inFlight()).toBe(0);

    gateway.calls.splice(0);
    forceGc();
    const after = process.memoryUsage();
    // After a full collection (forceGc turns on --expose-gc at run time) the heap holds only what the service
    // keeps between requests, which should be nothing: the ~20 MB of bodies sent would show if even half were
    // retained. RSS is bounded loosely, since V8 and malloc keep freed pages for reuse rather than return them.
    expect(sent).toBeGreaterThan(15_000_000);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(10 * 1024 * 1024);
    expect(after.rss - before.rss).toBeLessThan(150 * 1024 * 1024);

    const health = await client.send({ method: "GET", path: "/healthz" });
    expect(health.status).toBe(200);
  });
});
