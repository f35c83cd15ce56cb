import { describe, expect, it } from "vitest";
import { sampleQuestion, sampleSources } from "../../src/sample.js";
import { openEventStream, parseEventStream, type StreamEvent } from "../support/event-stream.js";
import { writesDuring } from "../support/response-writes.js";
import {
  completion,
  errorReply,
  sseChunks,
  streamedCompletion,
  streamReply,
} from "../support/scripted-gateway.js";
import {
  claimFrom,
  claimsContent,
  type ModelClaim,
  question,
  report,
  startWithGateway,
  startWithoutGateway,
  table,
} from "./harness.js";

// `"stream": true` on create and eval, end to end over HTTP: the events, the headers, `done` against the
// non-streaming answer, failures before and after the stream opens, incremental delivery, heartbeats, abort.

const founded = claimFrom(report, "Northwind was founded in 2016 in Lyon.");
const revenue = claimFrom(
  report,
  "Revenue for 2024 was $18.4 million",
  "Revenue for 2024 was $18.4 million.",
);
const staff = claimFrom(report, "The company employs 240 people.");
const invented: ModelClaim = { claim: "Profit doubled.", quote: "profit doubled", source: "report" };

const createBody = (extra: Record<string, unknown> = {}) => ({
  model: "gpt-test",
  messages: question,
  sources: [report, table],
  ...extra,
});

/** POSTs and reads the whole answer: the status, headers, and the events or JSON body. */
async function post(url: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const streamed = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  return {
    status: response.status,
    headers: response.headers,
    streamed,
    ...(streamed ? parseEventStream(text) : { events: [] as StreamEvent[], comments: [] as string[] }),
    json: streamed ? undefined : JSON.parse(text),
  };
}

/** The events a `done` result implies, in the model's order: what the claim events must have been. */
const names = (events: StreamEvent[]) => events.map((event) => event.event);

/** A promise with its resolve function, to hold a scripted stream until the test lets it go on. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open: () => open() };
}

/** A create on the local model, over the sample. */
const localBody = {
  model: "local",
  messages: [{ role: "user", content: sampleQuestion }],
  sources: sampleSources,
};

describe('POST /v1/verified with "stream": true', () => {
  it("on the local model: 200 event stream, a claim event per claim, then done equal to the JSON answer", async () => {
    const service = await startWithoutGateway();
    const body = localBody;

    const plain = await post(service.url, "/v1/verified", body);
    const streamed = await post(service.url, "/v1/verified", { ...body, stream: true });

    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(streamed.headers.get("x-accel-buffering")).toBe("no");
    expect(streamed.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(streamed.headers.get("content-encoding")).toBeNull();
    expect(plain.json.citations.length).toBeGreaterThan(1);
    expect(streamed.events).toEqual([
      ...plain.json.citations.map((citation: unknown) => ({ event: "claim", data: citation })),
      { event: "done", data: plain.json },
    ]);
  });

  it("writes done in chunks, as the JSON answer is: its head, then its data, not one serialisation", async () => {
    const service = await startWithoutGateway();
    const body = localBody;
    const plain = await post(service.url, "/v1/verified", body);
    const { value: streamed, writes } = await writesDuring(() =>
      post(service.url, "/v1/verified", { ...body, stream: true }),
    );
    expect(streamed.events.at(-1)).toEqual({ event: "done", data: plain.json });
    // Before, one write held the whole event: `event: done`, its data line and the blank line.
    const head = writes.findIndex((text) => text.startsWith("event: done\n"));
    expect(writes[head]).toBe("event: done\ndata: ");
    expect(JSON.parse(writes.slice(head + 1, -1).join(""))).toEqual(plain.json);
    expect(writes.at(-1)).toBe("\n\n");
  });

  it("through a gateway streaming token by token: asks for a stream with usage, and done equals the JSON answer", async () => {
    const { gateway, service } = await startWithGateway();
    const content = claimsContent(founded, invented, revenue);
    gateway.script(() => content);

    const plain = await post(service.url, "/v1/verified", createBody());
    const streamed = await post(service.url, "/v1/verified", createBody({ stream: true }));

    expect(gateway.calls[0]?.body).not.toHaveProperty("stream");
    expect(gateway.calls[1]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(streamed.events).toEqual([
      { event: "claim", data: plain.json.citations[0] },
      { event: "unsupported", data: plain.json.unsupported[0] },
      { event: "claim", data: plain.json.citations[1] },
      { event: "done", data: plain.json },
    ]);
    expect(plain.json.usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      model_calls: 1,
    });
  });

  it("sends each claim as soon as the model closes it, before the model has finished", async () => {
    const { gateway, service } = await startWithGateway();
    const content = claimsContent(founded, revenue);
    const pieces = sseChunks(content, { pieceChars: 3 });
    // Piece i (from 1) carries content[3(i - 1), 3i); the stream is held after the one closing the first claim.
    const firstEnd = content.indexOf(JSON.stringify(founded)) + JSON.stringify(founded).length;
    const closing = Math.floor((firstEnd - 1) / 3) + 1;
    const hold = latch();
    gateway.script(() =>
      streamReply(pieces, { gate: (index) => (index === closing + 1 ? hold.promise : Promise.resolve()) }),
    );

    const stream = await openEventStream(`${service.url}/v1/verified`, createBody({ stream: true }));
    const first = await stream.next();
    hold.open();
    const rest = await stream.rest();

    expect(stream.status).toBe(200);
    expect(first).toMatchObject({ event: "claim", data: { claim: founded.claim } });
    expect(names(rest)).toEqual(["claim", "done"]);
  });

  it("with a gateway that answers a streamed call with one JSON body, delivers the same events at the end", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => completion(claimsContent(founded, invented)));

    const streamed = await post(service.url, "/v1/verified", createBody({ stream: true }));

    expect(names(streamed.events)).toEqual(["claim", "unsupported", "done"]);
    expect(streamed.events[2]?.data.citations).toEqual([streamed.events[0]?.data]);
  });

  it("with a gateway that refuses to stream, asks again without streaming and remembers it for the model", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => claimsContent(founded));
    gateway.script.replyWith([
      errorReply(400, "stream is not supported with response_format", { param: "stream" }),
    ]);

    const first = await post(service.url, "/v1/verified", createBody({ stream: true }));
    const second = await post(service.url, "/v1/verified", createBody({ stream: true }));

    expect(names(first.events)).toEqual(["claim", "done"]);
    expect(names(second.events)).toEqual(["claim", "done"]);
    expect(gateway.calls.map((call) => (call.body as { stream?: boolean }).stream)).toEqual([
      true,
      undefined,
      undefined,
    ]);
    expect(first.events[1]?.data.usage.model_calls).toBe(1);
  });

  it("reports an attempt event when a retry starts, and done keeps the best attempt", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(founded, invented), claimsContent(invented)]);

    const plainGateway = await startWithGateway();
    plainGateway.gateway.script.replyWith([claimsContent(founded, invented), claimsContent(invented)]);
    const plain = await post(plainGateway.service.url, "/v1/verified", createBody({ retry: 1 }));
    const streamed = await post(service.url, "/v1/verified", createBody({ retry: 1, stream: true }));

    expect(streamed.events).toEqual([
      { event: "claim", data: plain.json.citations[0] },
      { event: "unsupported", data: plain.json.unsupported[0] },
      { event: "attempt", data: { attempt: 2 } },
      { event: "unsupported", data: plain.json.unsupported[0] },
      { event: "done", data: plain.json },
    ]);
    expect(plain.json.usage.model_calls).toBe(2);
  });

  it("ends with an error event when no claim can be grounded (after the stream opened)", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => claimsContent(invented));

    const streamed = await post(service.url, "/v1/verified", createBody({ stream: true }));

    expect(streamed.status).toBe(200);
    expect(names(streamed.events)).toEqual(["unsupported", "error"]);
    expect(streamed.events[1]?.data).toEqual({
      error: {
        type: "ungrounded",
        code: "ungrounded",
        message: expect.stringContaining("None of the model's 1 claims"),
        unsupported: [
          { claim: "Profit doubled.", reason: "quote_not_found", quote: "profit doubled", source: "report" },
        ],
        request_id: streamed.headers.get("x-request-id"),
      },
    });
  });

  it.each([
    ["an invalid body", createBody({ stream: "yes" }), 400, "invalid_request", null],
    [
      "sources over the budget",
      createBody({ stream: true, sources: [{ id: "big", text: "x".repeat(100_001) }] }),
      400,
      "sources_too_large",
      null,
    ],
    [
      "a key the gateway refuses",
      createBody({ stream: true }),
      401,
      "invalid_key",
      errorReply(401, "Invalid API key", { code: "invalid_api_key" }),
    ],
    [
      "an unknown model",
      createBody({ stream: true }),
      404,
      "model_not_found",
      errorReply(404, "No such model"),
    ],
  ] as const)(
    "answers %s before the stream opens with an ordinary JSON error",
    async (_name, body, status, type, reply) => {
      const { gateway, service } = await startWithGateway();
      if (reply !== null) gateway.script(() => reply);

      const response = await post(service.url, "/v1/verified", body);

      expect(response.status).toBe(status);
      expect(response.streamed).toBe(false);
      expect(response.json.error.type).toBe(type);
    },
  );

  it("sends heartbeat comments while the model is silent", async () => {
    const { gateway, service } = await startWithGateway({ config: { streamHeartbeatMs: 5 } });
    const hold = latch();
    gateway.script(() =>
      streamedCompletion(claimsContent(founded), {
        gate: (index) => (index === 1 ? hold.promise : Promise.resolve()),
      }),
    );

    const stream = await openEventStream(`${service.url}/v1/verified`, createBody({ stream: true }));
    const comment = await stream.comment();
    hold.open();
    const events = await stream.rest();

    expect(stream.status).toBe(200);
    expect(comment).toBe("keep-alive");
    expect(names(events)).toEqual(["claim", "done"]);
  });

  it("aborts the gateway call when the caller disconnects mid-stream, and leaves nothing in flight", async () => {
    const { gateway, service } = await startWithGateway();
    const hold = latch();
    const content = claimsContent(founded, revenue, staff);
    gateway.script(() =>
      streamReply(sseChunks(content, { pieceChars: 2000 }).slice(0, 2).concat(sseChunks(content).slice(5)), {
        gate: (index) => (index === 2 ? hold.promise : Promise.resolve()),
      }),
    );

    const stream = await openEventStream(`${service.url}/v1/verified`, createBody({ stream: true }));
    const first = await stream.next();
    stream.abort();

    const call = await gateway.waitForClientClose(0);
    hold.open();
    expect(first?.event).toBe("claim");
    expect(call.closedByClient).toBe(true);
    expect(gateway.inFlight()).toBe(0);
    // The service still serves.
    gateway.script(() => claimsContent(founded));
    const next = await post(service.url, "/v1/verified", createBody({ stream: true }));
    expect(names(next.events)).toEqual(["claim", "done"]);
  });
});

describe('POST /v1/verified/eval with "stream": true', () => {
  it("sends a case event as each case finishes, then done equal to the JSON answer", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script((call) => {
      const user =
        (call.body as { messages: { role: string; content: string }[] }).messages.at(-1)?.content ?? "";
      return user.includes("second") ? claimsContent(invented) : claimsContent(founded, invented);
    });
    const cases = ["first", "second"].map((content) => ({
      messages: [{ role: "user", content }],
      sources: [report],
    }));

    const plain = await post(service.url, "/v1/verified/eval", { model: "gpt-test", cases });
    const streamed = await post(service.url, "/v1/verified/eval", { model: "gpt-test", cases, stream: true });

    expect(streamed.status).toBe(200);
    const caseEvents = streamed.events.filter((event) => event.event === "case");
    expect(caseEvents.map((event) => event.data).sort((a, b) => a.index - b.index)).toEqual(
      plain.json.cases.map((result: object, index: number) => ({ index, ...result })),
    );
    expect(streamed.events.at(-1)).toEqual({ event: "done", data: plain.json });
    expect(streamed.events).toHaveLength(3);
  });

  it("fails the whole batch with a JSON error when the key is refused before any case finished", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => errorReply(401, "Invalid API key", { code: "invalid_api_key" }));
    const cases = [{ messages: [{ role: "user", content: "q" }], sources: [report] }];

    const response = await post(service.url, "/v1/verified/eval", { model: "gpt-test", cases, stream: true });

    expect(response.status).toBe(401);
    expect(response.json.error.type).toBe("invalid_key");
  });
});
