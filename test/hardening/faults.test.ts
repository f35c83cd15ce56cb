import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseEventStream } from "../support/event-stream.js";
import {
  completion,
  completionBody,
  errorReply,
  hangReply,
  htmlReply,
  hugeReply,
  jsonReply,
  type RecordedCall,
  resetReply,
  type ScriptedAnswer,
  type ScriptedGateway,
  sseChunks,
  startScriptedGateway,
  streamReply,
  textReply,
  trickleReply,
} from "../support/scripted-gateway.js";
import { type RunningService, startService } from "../support/start-service.js";
import { expectRegistryError } from "./expect-response.js";
import { activeResources, waitUntil } from "./process-probes.js";
import { createRawClient, jsonPost, type RawClient } from "./raw-client.js";

// Every gateway fault of the hardening issue, against one long-lived service: each ends in its documented
// error (or that case's error inside an eval), the very next request is served normally, and nothing is left
// behind: no request still in flight at the gateway, no connection beyond the one idle connection an HTTP
// client's pool may hold, and no timer (the deadline, backoff sleeps) still pending in this process.
// gateway-errors.test.ts pins the exact messages of several rows; these tests pin what happens around them.

const timeoutMs = 600;
const source = {
  id: "report",
  text: "Northwind was founded in 2016 in Lyon. The company employs 240 people.",
};
const lyon = JSON.stringify({ claims: [{ claim: "Founded in Lyon.", quote: "Lyon", source: "report" }] });
const ask = (content: string) => ({
  model: "gpt-test",
  messages: [{ role: "user", content }],
  sources: [source],
});
const healthy = "healthy question";
const faulty = "faulty question";

let gateway: ScriptedGateway;
/** Two services on the same gateway, each with the client that talks to it. */
interface Target {
  service: RunningService;
  client: RawClient;
}
/** A deadline of 600 ms, for the faults that end at the deadline. */
let quick: Target;
/**
 * A deadline of 60 s, for every other fault: a deadline or backoff timer the service failed to clear would
 * still be pending when the next request has been served, and the timer check would catch it.
 */
let patient: Target;
/** Replies for calls of the faulty question (create, or the faulty eval case), used in order. */
let faultReplies: ScriptedAnswer[] = [];

const userText = (call: RecordedCall) =>
  ((call.body as { messages?: { role: string; content: string }[] }).messages ?? []).find(
    (message) => message.role === "user",
  )?.content;

async function startTarget(gatewayTimeoutMs: number): Promise<Target> {
  const service = await startService({ gatewayURL: gateway.url, gatewayTimeoutMs });
  return { service, client: createRawClient(service.url) };
}

beforeAll(async () => {
  // No keep-alive at the gateway, so a finished exchange leaves no connection and a leak shows as one.
  gateway = await startScriptedGateway({ keepAlive: false });
  quick = await startTarget(timeoutMs);
  patient = await startTarget(60_000);
});

afterAll(async () => {
  for (const target of [quick, patient]) {
    await target?.client.close();
    await target?.service.close();
  }
  await gateway?.close();
});

beforeEach(() => {
  faultReplies = [];
  gateway.script((call) => (userText(call) === faulty ? (faultReplies.shift() ?? lyon) : lyon));
});

/**
 * Waits until the gateway has nothing in flight and at most one open connection: a pooling HTTP client may
 * keep one idle connection (Node's fetch even opens a spare one after an aborted call) until its 4 s idle
 * timeout; the last test checks that every connection does close.
 */
async function settled(): Promise<void> {
  await waitUntil(
    () => gateway.inFlight() === 0 && gateway.openSockets() <= 1,
    "the gateway to have no call in flight and at most one (idle) connection",
  );
}

/** Timers that keep the process alive: the test's own timeout timer is among them, before and after alike. */
const timers = () => activeResources().Timeout ?? 0;
const sockets = () => activeResources().TCPSocketWrap ?? 0;

/** The service answers a healthy create normally, and leaves no timer or socket behind. */
async function expectServingNormally(
  baseline: { timers: number; sockets: number },
  target: Target,
): Promise<void> {
  const response = await target.client.send(jsonPost("/v1/verified", ask(healthy)));
  expect(response.status).toBe(200);
  expect(response.json.citations).toEqual([
    { claim: "Founded in Lyon.", quote: "Lyon", source: "report", range: [33, 37] },
  ]);
  await settled();
  await waitUntil(() => timers() <= baseline.timers, "every timer the fault started to be cleared");
  // Both ends of the client's keep-alive connection and of one idle gateway connection are in this process.
  await waitUntil(() => sockets() <= baseline.sockets + 2, "sockets to return to the baseline");
}

interface Fault {
  name: string;
  replies: ScriptedAnswer[];
  status: number;
  type: string;
  /** The message, or a part that shows which fault was recognised. */
  message: RegExp;
  /** Gateway calls the faulty request makes. */
  calls: number;
  /** The Retry-After header the caller gets (null: none). */
  retryAfter?: string | RegExp | null;
  /** The gateway saw the service close the connection before its reply was complete. */
  abandoned?: boolean;
  /** Ends at the 600 ms deadline (runs on the quick service). */
  deadline?: boolean;
}

const truncated = '{"claims": [{"claim": "Founded in Lyon.", "quote": "Ly';
const partialBody = JSON.stringify(completionBody(lyon)).slice(0, 60);
// An hour ahead: whenever the case runs, the header forwarded is 3,5xx-3,600 seconds.
const retryAfterDate = new Date(Date.now() + 3_600_000).toUTCString();

const faults: Fault[] = [
  {
    name: "never answers: 504 after the timeout, the call abandoned",
    replies: [hangReply()],
    status: 504,
    type: "gateway_timeout",
    message: new RegExp(`within ${timeoutMs} ms`),
    calls: 1,
    abandoned: true,
    deadline: true,
  },
  ...[500, 502, 503].map(
    (status): Fault => ({
      name: `${status} three times: retried twice, then 502`,
      replies: [1, 2, 3].map(() => errorReply(status, `upstream ${status}`, { type: "server_error" })),
      status: 502,
      type: "gateway_error",
      message: new RegExp(`failed 3 times; the last time it answered HTTP ${status}`),
      calls: 3,
    }),
  ),
  {
    name: "a 503 then a good answer: retried, then 200",
    replies: [errorReply(503, "overloaded"), lyon],
    status: 200,
    type: "",
    message: /./,
    calls: 2,
  },
  {
    name: "resets the connection mid-body three times: 502",
    replies: [1, 2, 3].map(() => resetReply({ partialBody })),
    status: 502,
    type: "gateway_error",
    message: /failed 3 times; the last time it broke off its answer \(HTTP 200/,
    calls: 3,
  },
  {
    name: "invalid JSON three times: 502",
    replies: [1, 2, 3].map(() => textReply('{"choices": [{"message": ', { contentType: "application/json" })),
    status: 502,
    type: "gateway_error",
    message: /failed 3 times; the last time it answered a body that is not JSON/,
    calls: 3,
  },
  {
    name: "an HTML page with status 200 three times: 502",
    replies: [1, 2, 3].map(() => htmlReply(200, "Please sign in")),
    status: 502,
    type: "gateway_error",
    message: /failed 3 times; the last time it answered an HTML page instead of JSON/,
    calls: 3,
  },
  {
    name: "an HTML page with status 401: invalid_key",
    replies: [htmlReply(401, "401 Authorization Required")],
    status: 401,
    type: "invalid_key",
    message: /refused the API key \(HTTP 401: an HTML error page\)/,
    calls: 1,
  },
  {
    name: "JSON with no choices three times: 502",
    replies: [1, 2, 3].map(() => jsonReply({ id: "chatcmpl-1", object: "chat.completion", usage: {} })),
    status: 502,
    type: "gateway_error",
    message: /failed 3 times; the last time it answered JSON without choices/,
    calls: 3,
  },
  {
    name: "empty content twice: re-asked, then extraction_failed",
    replies: [completion(""), completion("")],
    status: 502,
    type: "extraction_failed",
    message: /unusable after one re-ask: the model returned no content/,
    calls: 2,
  },
  {
    name: 'finish_reason "length" with truncated JSON twice: re-asked, then extraction_failed',
    replies: [
      completion(truncated, { finishReason: "length" }),
      completion(truncated, { finishReason: "length" }),
    ],
    status: 502,
    type: "extraction_failed",
    message: /unusable after one re-ask: the model's output is not valid JSON/,
    calls: 2,
  },
  {
    name: 'finish_reason "length" once, then a whole answer: 200',
    replies: [completion(truncated, { finishReason: "length" }), lyon],
    status: 200,
    type: "",
    message: /./,
    calls: 2,
  },
  {
    name: "a 200 carrying an error object: 502, not retried",
    replies: [jsonReply({ error: { message: "Provider returned error", type: "upstream_error" } })],
    status: 502,
    type: "gateway_error",
    message: /answered with an error \(HTTP 200: Provider returned error\)/,
    calls: 1,
  },
  {
    name: "a 200 carrying an error with code 502 three times: retried, then 502",
    replies: [1, 2, 3].map(() => jsonReply({ error: { message: "Upstream unavailable", code: 502 } })),
    status: 502,
    type: "gateway_error",
    message: /failed 3 times; the last time it answered HTTP 200 \[502\]: Upstream unavailable/,
    calls: 3,
  },
  {
    name: "a 200 carrying an error with code 429: rate_limited",
    replies: [jsonReply({ error: { message: "Rate limit exceeded", code: 429 } })],
    status: 429,
    type: "rate_limited",
    message: /rate-limited the call/,
    calls: 1,
  },
  {
    name: "trickles the body slower than the timeout: 504, the call abandoned",
    replies: [trickleReply(JSON.stringify(completionBody(lyon)), { intervalMs: 40, chunkBytes: 1 })],
    status: 504,
    type: "gateway_timeout",
    message: new RegExp(`within ${timeoutMs} ms`),
    calls: 1,
    abandoned: true,
    deadline: true,
  },
  {
    name: "a 20 MB body, chunked: refused at 8 MiB, the connection closed early",
    replies: [hugeReply(20_000_000)],
    status: 502,
    type: "gateway_error",
    message: /larger than 8 MiB, the most the service reads; it was refused/,
    calls: 1,
    abandoned: true,
  },
  {
    name: "a 20 MB body with its Content-Length: refused before reading, the connection closed early",
    replies: [hugeReply(20_000_000, { contentLength: true })],
    status: 502,
    type: "gateway_error",
    message: /larger than 8 MiB, the most the service reads; it was refused/,
    calls: 1,
    abandoned: true,
  },
  {
    name: "401: invalid_key, not retried",
    replies: [errorReply(401, "Invalid API key", { code: "invalid_api_key" })],
    status: 401,
    type: "invalid_key",
    message: /refused the API key/,
    calls: 1,
  },
  {
    name: "402: insufficient_quota, not retried",
    replies: [errorReply(402, "Insufficient credits")],
    status: 402,
    type: "insufficient_quota",
    message: /exhausted credits or quota/,
    calls: 1,
  },
  {
    name: "404: model_not_found, not retried",
    replies: [errorReply(404, "No such model")],
    status: 404,
    type: "model_not_found",
    message: /does not know model "gpt-test"/,
    calls: 1,
  },
  {
    name: "429 with Retry-After in seconds: rate_limited, the header forwarded",
    replies: [
      errorReply(429, "Slow down", { code: "rate_limit_exceeded", headers: { "retry-after": "12" } }),
    ],
    status: 429,
    type: "rate_limited",
    message: /retry after 12 s/,
    calls: 1,
    retryAfter: "12",
  },
  {
    name: "429 with Retry-After as an HTTP date: forwarded in seconds",
    replies: [errorReply(429, "Slow down", { headers: { "retry-after": retryAfterDate } })],
    status: 429,
    type: "rate_limited",
    message: /retry after 3[56]\d\d s/,
    calls: 1,
    retryAfter: /^3[56]\d\d$/,
  },
  {
    name: "429 without Retry-After: rate_limited, no header",
    replies: [errorReply(429, "Slow down", { code: "rate_limit_exceeded" })],
    status: 429,
    type: "rate_limited",
    message: /\(HTTP 429 \[rate_limit_exceeded\]: Slow down\); retry later\./,
    calls: 1,
    retryAfter: null,
  },
];

/** Errors that fail a whole eval rather than one case. */
const batchFatal = new Set(["invalid_key", "insufficient_quota", "model_not_found"]);

describe("a gateway fault on create", () => {
  it.each(faults)("$name", async (fault) => {
    await settled();
    const baseline = { timers: timers(), sockets: sockets() };
    const before = gateway.calls.length;
    faultReplies = [...fault.replies];
    const target = fault.deadline ? quick : patient;

    const response = await target.client.send(jsonPost("/v1/verified", ask(faulty)));

    expect(response.status).toBe(fault.status);
    if (fault.status === 200) {
      expect(response.json.citations).toHaveLength(1);
    } else {
      expectRegistryError(response.status, response.json);
      expect(response.json.error.type).toBe(fault.type);
      expect(response.json.error.message).toMatch(fault.message);
    }
    if (fault.retryAfter !== undefined) {
      if (fault.retryAfter === null || typeof fault.retryAfter === "string") {
        expect(response.headers["retry-after"] ?? null).toBe(fault.retryAfter);
      } else {
        expect(response.headers["retry-after"]).toMatch(fault.retryAfter);
      }
    }
    expect(gateway.calls.length - before).toBe(fault.calls);
    expect(faultReplies).toEqual([]);
    if (fault.abandoned) {
      const call = await gateway.waitForClientClose(before);
      expect(call.closedByClient).toBe(true);
    }
    await expectServingNormally(baseline, target);
  });
});

describe("a gateway fault inside eval", () => {
  it.each(faults)("$name", async (fault) => {
    await settled();
    const baseline = { timers: timers(), sockets: sockets() };
    const before = gateway.calls.length;
    faultReplies = [...fault.replies];
    const cases = [faulty, healthy].map((content) => {
      const { messages, sources } = ask(content);
      return { messages, sources };
    });

    const target = fault.deadline ? quick : patient;

    const response = await target.client.send(jsonPost("/v1/verified/eval", { model: "gpt-test", cases }));

    if (batchFatal.has(fault.type)) {
      // No case can succeed with this key or model: the whole batch fails with the error.
      expect(response.status).toBe(fault.status);
      expectRegistryError(response.status, response.json);
      expect(response.json.error.type).toBe(fault.type);
    } else {
      expect(response.status).toBe(200);
      const scored = { coverage: 1, citations: 1, unsupported: 0 };
      expect(response.json.cases).toEqual([
        fault.status === 200
          ? scored
          : { error: { type: fault.type, code: fault.type, message: expect.stringMatching(fault.message) } },
        scored,
      ]);
      expect(response.json.aggregate).toEqual({
        coverage_mean: 1,
        unsupported_rate: 0,
        n: 2,
        errored: fault.status === 200 ? 0 : 1,
      });
      // The faulty case's calls plus the healthy case's one.
      expect(gateway.calls.length - before).toBe(fault.calls + 1);
    }
    // A per-case 429 is the case's error; the eval answer itself carries no Retry-After.
    expect(response.headers["retry-after"]).toBeUndefined();
    await expectServingNormally(baseline, target);
  });
});

/**
 * Starts a POST with its own connection and returns a function that drops it, as a caller that goes away
 * does. (A fetch abort would leave a spare keep-alive connection open.)
 */
function startPost(path: string, body: unknown): () => void {
  const request = httpRequest(`${patient.service.url}${path}`, {
    method: "POST",
    agent: false,
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
  });
  request.on("error", () => undefined);
  request.end(JSON.stringify(body));
  return () => request.destroy();
}

describe("the caller disconnecting mid-request aborts the gateway call", () => {
  it.each([
    {
      name: "create, while the gateway has not answered",
      path: "/v1/verified",
      body: ask(faulty),
      replies: [hangReply()],
    },
    {
      name: "create, while the gateway trickles its body",
      path: "/v1/verified",
      body: ask(faulty),
      replies: [trickleReply(JSON.stringify(completionBody(lyon)), { intervalMs: 20 })],
    },
    {
      name: "extract, while the gateway has not answered",
      path: "/v1/verified/extract",
      body: { model: "gpt-test", sources: [source], schema: { city: "faulty question" } },
      replies: [hangReply()],
    },
    {
      name: "eval, while the gateway has not answered",
      path: "/v1/verified/eval",
      body: {
        model: "gpt-test",
        cases: [{ messages: [{ role: "user", content: faulty }], sources: [source] }],
      },
      replies: [hangReply()],
    },
  ])("$name", async ({ path, body, replies }) => {
    await settled();
    const baseline = { timers: timers(), sockets: sockets() };
    const before = gateway.calls.length;
    gateway.script(() => replies.shift() ?? lyon);

    const hangUp = startPost(path, body);
    await gateway.waitForCalls(before + 1);
    hangUp();

    const call = await gateway.waitForClientClose(before);
    expect(call.closedByClient).toBe(true);
    gateway.script(() => lyon);
    await expectServingNormally(baseline, patient);
    // The abandoned request made no other call.
    expect(gateway.calls.length - before).toBe(2);
  });

  it("during the backoff between retries, no further attempt is made", async () => {
    await settled();
    const baseline = { timers: timers(), sockets: sockets() };
    const before = gateway.calls.length;
    faultReplies = [errorReply(503, "overloaded")];

    const hangUp = startPost("/v1/verified", ask(faulty));
    await gateway.waitForCalls(before + 1);
    // The 503 is answered; the service now sleeps 100-200 ms before its retry.
    await waitUntil(() => gateway.inFlight() === 0, "the 503 to be answered");
    hangUp();

    // With the backoff timer cleared there is nothing left that could make the retry.
    await waitUntil(() => timers() <= baseline.timers, "the backoff timer to be cleared");
    expect(gateway.calls.length - before).toBe(1);
    await expectServingNormally(baseline, patient);
  });
});

/** Faults only a streamed answer can have: each after the stream opened, most after some text. */
const lyonChunks = sseChunks(lyon, { pieceChars: 8 });
const afterText = lyonChunks.slice(0, 4);
const streamError = (error: unknown) => `data: ${JSON.stringify({ error })}\n\n`;
const streamFaults: Fault[] = [
  {
    name: "an error object mid-stream after some text: gateway_error, not retried",
    replies: [streamReply([...afterText, streamError({ message: "Provider returned error" })])],
    status: 502,
    type: "gateway_error",
    message: /answered with an error \(HTTP 200: Provider returned error\)/,
    calls: 1,
  },
  {
    name: "a 429 error object mid-stream: rate_limited",
    replies: [streamReply([...afterText, streamError({ message: "Rate limit exceeded", code: 429 })])],
    status: 429,
    type: "rate_limited",
    message: /rate-limited the call/,
    calls: 1,
  },
  {
    name: "a 502 error object before any text, three times: retried, then gateway_error",
    replies: [1, 2, 3].map(() => streamReply([streamError({ message: "Upstream unavailable", code: 502 })])),
    status: 502,
    type: "gateway_error",
    message: /failed 3 times; the last time it answered HTTP 200 \[502\]: Upstream unavailable/,
    calls: 3,
  },
  {
    name: "a reset mid-event after some text: gateway_error, not retried",
    replies: [streamReply([...afterText, lyonChunks[4]?.slice(0, 15) ?? ""], { end: "reset" })],
    status: 502,
    type: "gateway_error",
    message: /stream failed: it broke off its stream/,
    calls: 1,
  },
  {
    name: "a reset before any text: retried, then 200",
    replies: [streamReply(lyonChunks.slice(0, 1), { end: "reset" })],
    status: 200,
    type: "",
    message: /./,
    calls: 2,
  },
  {
    name: "closed mid-answer without [DONE] or finish_reason: gateway_error, not retried",
    replies: [streamReply(afterText)],
    status: 502,
    type: "gateway_error",
    message: /ended its event stream before the answer was finished/,
    calls: 1,
  },
  {
    name: "an event that is not JSON after some text: gateway_error",
    replies: [streamReply([...afterText, "data: {not json\n\n"])],
    status: 502,
    type: "gateway_error",
    message: /sent a stream event that is not JSON/,
    calls: 1,
  },
  {
    name: "truncated JSON with finish_reason length twice: re-asked, then extraction_failed",
    replies: [1, 2].map(() => streamReply(sseChunks(truncated, { finishReason: "length" }))),
    status: 502,
    type: "extraction_failed",
    message: /unusable after one re-ask: the model's output is not valid JSON/,
    calls: 2,
  },
  {
    name: "falls silent mid-stream: 504 at the timeout, the call abandoned",
    replies: [streamReply(afterText, { end: "hang" })],
    status: 504,
    type: "gateway_timeout",
    message: new RegExp(`within ${timeoutMs} ms`),
    calls: 1,
    abandoned: true,
    deadline: true,
  },
  {
    name: "an 18 MB stream: refused at 8 MiB, the connection closed early",
    replies: [
      streamReply([
        ...lyonChunks.slice(0, 1),
        ...Array.from({ length: 300 }, () => sseChunks("a".repeat(60_000), { pieceChars: 60_000 })[1] ?? ""),
      ]),
    ],
    status: 502,
    type: "gateway_error",
    message: /larger than 8 MiB, the most the service reads; it was refused/,
    calls: 1,
    abandoned: true,
  },
];

describe('a gateway fault on a streamed create ("stream": true) ends in an error event or a JSON error', () => {
  it.each([...faults, ...streamFaults])("$name", async (fault) => {
    await settled();
    const baseline = { timers: timers(), sockets: sockets() };
    const before = gateway.calls.length;
    faultReplies = [...fault.replies];
    const target = fault.deadline ? quick : patient;

    const response = await target.client.send(jsonPost("/v1/verified", { ...ask(faulty), stream: true }));

    const streamed = String(response.headers["content-type"]).startsWith("text/event-stream");
    const { events } = streamed ? parseEventStream(response.text) : { events: [] };
    const last = events.at(-1);
    if (fault.status === 200) {
      expect(response.status).toBe(200);
      // A re-asked reply shows as an attempt event before the used reply's claims.
      expect(events.map((event) => event.event).filter((name) => name !== "attempt")).toEqual([
        "claim",
        "done",
      ]);
      expect(last?.data.citations).toHaveLength(1);
    } else if (streamed) {
      // The stream had opened (the gateway accepted the call): the failure is its last event.
      expect(response.status).toBe(200);
      expect(last?.event).toBe("error");
      expectRegistryError(fault.status, last?.data);
      expect(last?.data.error.type).toBe(fault.type);
      expect(last?.data.error.message).toMatch(fault.message);
    } else {
      expect(response.status).toBe(fault.status);
      expectRegistryError(response.status, response.json);
      expect(response.json.error.type).toBe(fault.type);
      expect(response.json.error.message).toMatch(fault.message);
    }
    expect(gateway.calls.length - before).toBe(fault.calls);
    expect(faultReplies).toEqual([]);
    if (fault.abandoned) {
      const call = await gateway.waitForClientClose(before);
      expect(call.closedByClient).toBe(true);
    }
    await expectServingNormally(baseline, target);
  });

  it("the caller disconnecting mid-stream aborts the gateway call", async () => {
    await settled();
    const baseline = { timers: timers(), sockets: sockets() };
    const before = gateway.calls.length;
    faultReplies = [streamReply(afterText, { end: "hang" })];

    const hangUp = startPost("/v1/verified", { ...ask(faulty), stream: true });
    await gateway.waitForCalls(before + 1);
    hangUp();

    const call = await gateway.waitForClientClose(before);
    expect(call.closedByClient).toBe(true);
    await expectServingNormally(baseline, patient);
    expect(gateway.calls.length - before).toBe(2);
  });
});

describe("afterwards", () => {
  it("every connection to the gateway closes on its own once idle", async () => {
    // An idle pooled connection is closed after the client's 4 s keep-alive timeout.
    await waitUntil(() => gateway.openSockets() === 0, "the gateway to have no open connection", 8_000);
    expect(gateway.inFlight()).toBe(0);
  });
});
