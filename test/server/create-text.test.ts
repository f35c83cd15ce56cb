import { describe, expect, it } from "vitest";
import { EVAL_ANSWER_CHUNK_CHARS } from "../../src/limits.js";
import { sampleQuestion, sampleSources } from "../../src/sample.js";
import { openEventStream, parseEventStream, type StreamEvent } from "../support/event-stream.js";
import { writesDuring } from "../support/response-writes.js";
import { sseChunks, streamedCompletion } from "../support/scripted-gateway.js";
import {
  chatBody,
  question,
  report,
  scriptHeldStream,
  startWithGateway,
  startWithoutGateway,
  table,
} from "./harness.js";

// `"answer_format": "text"` on create, end to end over HTTP: the model answers in prose with `[id]` markers,
// and the answer is checked sentence by sentence (answer mode), retried with feedback, and streamed.

const supported = "Northwind was founded in 2016 in Lyon [report].";
const invented = "Northwind also runs a bakery in Paris [report].";
const staff = "The company employs 240 people [report].";

/** The sample question on the local model, answered in prose. */
const localBody = {
  model: "local",
  messages: [{ role: "user", content: sampleQuestion }],
  sources: sampleSources,
  answer_format: "text",
};

const textBody = (extra: Record<string, unknown> = {}) => ({
  model: "gpt-test",
  messages: question,
  sources: [report, table],
  answer_format: "text",
  ...extra,
});

async function post(url: string, body: unknown) {
  const response = await fetch(`${url}/v1/verified`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const streamed = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  return {
    status: response.status,
    events: streamed ? parseEventStream(text).events : ([] as StreamEvent[]),
    json: streamed ? undefined : JSON.parse(text),
  };
}

/** An eval in text format with details of one case ("a": the question on the report), plus `extra` fields. */
async function evalText(url: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${url}/v1/verified/eval`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify({
      model: "gpt-test",
      answer_format: "text",
      details: true,
      cases: [{ id: "a", messages: question, sources: [report] }],
      ...extra,
    }),
  });
  return { status: response.status, json: await response.json() };
}

/** The claim and unsupported events a result implies, in answer order. */
function eventsOf(result: {
  citations: { answer_range: [number, number] }[];
  unsupported: { answer_range: [number, number] }[];
}): StreamEvent[] {
  return [
    ...result.citations.map((data) => ({ at: data.answer_range[0], event: { event: "claim", data } })),
    ...result.unsupported.map((data) => ({
      at: data.answer_range[0],
      event: { event: "unsupported", data },
    })),
  ]
    .sort((a, b) => a.at - b.at)
    .map(({ event }) => event);
}

describe('POST /v1/verified with "answer_format": "text"', () => {
  it("asks the model for prose with [id] markers and keeps only the sentences the sources support", async () => {
    const { gateway, service } = await startWithGateway();
    const answer = `${supported} ${invented} ${staff}`;
    gateway.script(() => answer);

    const { status, json } = await post(service.url, textBody({ explain: true }));

    expect(status).toBe(200);
    const sent = chatBody(gateway.calls[0]);
    expect(sent.response_format).toBeUndefined();
    expect(sent.messages[0]?.content).toContain("[doc-a]");
    expect(sent.messages[0]?.content).toContain(report.text);
    expect(json.text).toBe(`${supported} ${staff}`);
    expect(json.citations.map((citation: { source: string }) => citation.source)).toEqual([
      "report",
      "report",
    ]);
    expect(json.citations[0]).toMatchObject({
      claim: "Northwind was founded in 2016 in Lyon.",
      source: "report",
      support: 1,
      answer_range: [0, supported.length],
    });
    const [start, end] = json.citations[0].range;
    expect(report.text.slice(start, end)).toBe(json.citations[0].quote);
    expect(json.unsupported).toEqual([
      expect.objectContaining({
        claim: "Northwind also runs a bakery in Paris.",
        reason: "entity_not_found",
        answer_range: [supported.length + 1, supported.length + 1 + invented.length],
        detail: { entity: "Paris" },
      }),
    ]);
    expect(json.coverage).toBeCloseTo(2 / 3);
    expect(json.grounded).toBe(true);
    expect(json.abstained).toBe(false);
    expect(json.usage.model_calls).toBe(1);
  });

  it("fails a model's answer of more claims than the cap as extraction_failed, JSON and streamed", async () => {
    const { gateway, service } = await startWithGateway();
    // 10,001 sentences: over MAX_ANSWER_CLAIMS. It is the model's output that is too large, not the request.
    gateway.script(() => "Lyon. ".repeat(10_001));

    const json = await post(service.url, textBody());
    const streamed = await post(service.url, textBody({ stream: true }));

    expect(json.status).toBe(502);
    expect(json.json.error).toMatchObject({ type: "extraction_failed" });
    expect(json.json.error.param).toBeUndefined();
    expect(json.json.error.message).toContain("The model's answer holds more than 10,000 claims and clauses");
    const last = streamed.events.at(-1);
    expect(last?.event).toBe("error");
    expect(last?.data.error).toMatchObject({ type: "extraction_failed" });
    // The claims reported before it were within the cap.
    expect(streamed.events.filter((event) => event.event === "claim").length).toBeLessThanOrEqual(10_000);
  });

  it("writes the result of a prose answer longer than EVAL_ANSWER_CHUNK_CHARS in chunks, as check does", async () => {
    const { gateway, service } = await startWithGateway();
    // Sentences of about 250 characters: over a MiB of them stays under the claim cap.
    const sentence = `${"Northwind was founded in 2016 in Lyon, ".repeat(5)}${supported} `;
    const long = sentence.repeat(Math.ceil((EVAL_ANSWER_CHUNK_CHARS + 1) / sentence.length));
    gateway.script.replyWith([sentence, long]);
    const ask = () =>
      fetch(`${service.url}/v1/verified`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer test-key" },
        body: JSON.stringify(textBody()),
      });
    const short = await ask();
    const chunked = await ask();
    // One serialisation writes a body of a known length; chunks, a body whose length is not known up front.
    expect(short.headers.get("content-length")).not.toBeNull();
    expect(chunked.headers.get("content-length")).toBeNull();
    expect(chunked.headers.get("transfer-encoding")).toBe("chunked");
    expect(chunked.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const [one, all] = [await short.json(), await chunked.json()];
    const count = long.length / sentence.length;
    expect(all.citations).toHaveLength(count);
    expect(all.citations.at(-1)).toEqual({
      ...one.citations[0],
      answer_range: [(count - 1) * sentence.length, count * sentence.length - 1],
    });
    expect(all).toMatchObject({ unsupported: [], coverage: 1, grounded: true });
  });

  it("writes a 422 ungrounded listing more than EVAL_ANSWER_CHUNK_CHARS of failed claims in chunks: its head first", async () => {
    const { gateway, service } = await startWithGateway();
    // Sentences of about 250 characters that no source holds (their claims, without the marker, a little
    // shorter): 1.25 MiB of them stays under the claim cap.
    const sentence = `${"Northwind also runs a bakery in Paris, ".repeat(5)}${invented} `;
    const long = sentence.repeat(Math.ceil((1.25 * EVAL_ANSWER_CHUNK_CHARS) / sentence.length));
    gateway.script.replyWith([sentence, long]);
    const ask = () => post(service.url, textBody({ retry: 0 }));
    const short = await ask();
    const { value: chunked, writes } = await writesDuring(ask);
    expect(short.status).toBe(422);
    expect(chunked.status).toBe(422);
    // Before, one serialisation wrote the whole body at once (`reply.send` of the error body).
    const head = writes.findIndex((text) => text.startsWith('{"error":'));
    expect(writes[head]).toBe('{"error":');
    expect(JSON.parse(writes.slice(head).join(""))).toEqual(chunked.json);
    const count = long.length / sentence.length;
    expect(chunked.json.error).toMatchObject({ type: "ungrounded", code: "ungrounded" });
    expect(chunked.json.error.request_id).toEqual(expect.any(String));
    expect(chunked.json.error.unsupported).toHaveLength(count);
    const [first, last] = [short.json.error.unsupported[0], chunked.json.error.unsupported.at(-1)];
    expect(last).toEqual({
      ...first,
      answer_range: first.answer_range.map((offset: number) => offset + (count - 1) * sentence.length),
    });
  });

  it("streams the error event of such a 422 ungrounded in chunks too: its head, then its data", async () => {
    const { gateway, service } = await startWithGateway();
    const sentence = `${"Northwind also runs a bakery in Paris, ".repeat(5)}${invented} `;
    const long = sentence.repeat(Math.ceil((1.25 * EVAL_ANSWER_CHUNK_CHARS) / sentence.length));
    // Streamed in pieces of 64 KiB: a model's stream event holds at most 1 MiB.
    gateway.script.replyWith([long, streamedCompletion(long, { pieceChars: 65_536 })]);
    const plain = await post(service.url, textBody({ retry: 0 }));
    const { value: streamed, writes } = await writesDuring(() =>
      post(service.url, textBody({ retry: 0, stream: true })),
    );
    const last = streamed.events.at(-1);
    expect(last?.event).toBe("error");
    const { request_id: _streamedId, ...streamedError } = last?.data.error ?? {};
    const { request_id: _plainId, ...plainError } = plain.json.error;
    expect(streamedError).toEqual(plainError);
    // Before, one write held the whole event: `event: error`, its data line and the blank line.
    const head = writes.findIndex((text) => text.startsWith("event: error\n"));
    expect(writes[head]).toBe("event: error\ndata: ");
    expect(writes.at(-1)).toBe("\n\n");
  });

  it("abstains below min_coverage and fails as ungrounded when no sentence holds", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([`${supported} ${invented}`, invented]);

    const abstained = await post(service.url, textBody({ min_coverage: 0.9 }));
    const ungrounded = await post(service.url, textBody());

    expect(abstained.json).toMatchObject({ coverage: 0.5, abstained: true, grounded: true });
    expect(ungrounded.status).toBe(422);
    expect(ungrounded.json.error.type).toBe("ungrounded");
  });

  it("retries with feedback naming each dropped sentence and why, and keeps the best attempt", async () => {
    const { gateway, service } = await startWithGateway();
    const wrongSource = "The company employs 240 people [table].";
    gateway.script.replyWith([`${supported} ${wrongSource}`, `${supported} ${staff}`]);

    const { json } = await post(service.url, textBody({ retry: 2 }));

    expect(gateway.calls).toHaveLength(2);
    const feedback = chatBody(gateway.calls[1]).messages;
    expect(feedback.at(-2)).toEqual({ role: "assistant", content: `${supported} ${wrongSource}` });
    expect(feedback.at(-1)?.content).toContain('"The company employs 240 people.": the source it cites');
    expect(feedback.at(-1)?.content).toContain("[report] does: cite that one");
    expect(json.text).toBe(`${supported} ${staff}`);
    expect(json.unsupported).toEqual([]);
    expect(json.coverage).toBe(1);
    expect(json.usage.model_calls).toBe(2);
  });

  it("keeps the earlier attempt when a retry does worse", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([`${supported} ${invented}`, invented]);

    const { json } = await post(service.url, textBody({ retry: 1 }));

    expect(json.text).toBe(supported);
    expect(json.unsupported).toHaveLength(1);
    expect(json.usage.model_calls).toBe(2);
  });

  it("on the local model: answers in prose with a marker after each sentence, all of them supported", async () => {
    const service = await startWithoutGateway();
    const body = localBody;

    const { status, json } = await post(service.url, body);

    expect(status).toBe(200);
    expect(json.citations.length).toBeGreaterThan(1);
    expect(json.unsupported).toEqual([]);
    expect(json.coverage).toBe(1);
    for (const citation of json.citations) {
      expect(json.text).toContain(`${citation.quote} [${citation.source}]`);
      expect(citation.support).toBe(1);
      expect(json.text.slice(...citation.answer_range)).toBe(`${citation.quote} [${citation.source}]`);
    }
  });

  it("streams a claim or unsupported event per sentence, agreeing with done, which equals the JSON answer", async () => {
    const { gateway, service } = await startWithGateway();
    const answer = `${supported} ${invented}\n${staff}`;
    gateway.script(() => answer);

    const plain = await post(service.url, textBody());
    const streamed = await post(service.url, textBody({ stream: true }));

    expect(gateway.calls[1]?.body).toMatchObject({ stream: true });
    expect(plain.json.citations).toHaveLength(2);
    expect(streamed.events).toEqual([...eventsOf(plain.json), { event: "done", data: plain.json }]);
    expect(streamed.events.map((event) => event.event)).toEqual(["claim", "unsupported", "claim", "done"]);
  });

  it("sends a sentence's verdict once the next sentence begins, before the model has finished", async () => {
    const { gateway, service } = await startWithGateway();
    const answer = `${supported} ${invented} ${staff}`;
    const pieces = sseChunks(answer, { pieceChars: 3 });
    // Piece i (from 1) carries answer[3(i - 1), 3i); the stream is held 24 characters into the second
    // sentence, so only the first sentence has closed.
    const hold = scriptHeldStream(gateway, pieces, Math.floor(supported.length / 3) + 10);

    const stream = await openEventStream(`${service.url}/v1/verified`, textBody({ stream: true }));
    const first = await stream.next();
    hold.release();
    const rest = await stream.rest();

    expect(first).toMatchObject({ event: "claim", data: { answer_range: [0, supported.length] } });
    expect(rest.map((event) => event.event)).toEqual(["unsupported", "claim", "done"]);
  });

  it("streams on the local model, and an attempt event before a retry's sentences", async () => {
    const service = await startWithoutGateway();
    const body = localBody;
    const plain = await post(service.url, body);
    const streamed = await post(service.url, { ...body, stream: true });
    expect(streamed.events).toEqual([...eventsOf(plain.json), { event: "done", data: plain.json }]);

    const { gateway, service: gatewayService } = await startWithGateway();
    gateway.script.replyWith([`${supported} ${invented}`, `${supported} ${staff}`]);
    const retried = await post(gatewayService.url, textBody({ retry: 1, stream: true }));
    expect(retried.events.map((event) => event.event)).toEqual([
      "claim",
      "unsupported",
      "attempt",
      "claim",
      "claim",
      "done",
    ]);
    expect(retried.events.at(-1)?.data.text).toBe(`${supported} ${staff}`);
  });

  it("keeps a partly supported sentence with its new words in partial, or drops it, JSON and streamed", async () => {
    const { gateway, service } = await startWithGateway();
    const partly = "🌍 Northwind was founded in 2016 in Lyon with great ambition [report].";
    const claim = "🌍 Northwind was founded in 2016 in Lyon with great ambition.";
    gateway.script(() => `${partly} ${staff}`);

    const kept = await post(service.url, textBody({ offsets: "codepoint" }));
    const keptStreamed = await post(service.url, textBody({ offsets: "codepoint", stream: true }));
    const dropped = await post(service.url, textBody({ partial: "drop" }));
    const droppedStreamed = await post(service.url, textBody({ partial: "drop", stream: true }));

    // Code points: the globe counts one, so "great" starts at 45 (46 in UTF-16 code units).
    expect(kept.json.partial).toEqual([
      { claim, term: "great", answer_range: [45, 50] },
      { claim, term: "ambition", answer_range: [51, 59] },
    ]);
    expect(kept.json).toMatchObject({ text: `${partly} ${staff}`, unsupported: [], coverage: 1 });
    expect(keptStreamed.events.at(-1)).toEqual({ event: "done", data: kept.json });
    expect(dropped.json).toMatchObject({ text: staff, partial: [], coverage: 0.5 });
    expect(dropped.json.unsupported).toEqual([
      expect.objectContaining({ claim, reason: "partial_support", answer_range: [0, partly.length] }),
    ]);
    expect(droppedStreamed.events.map((event) => event.event)).toEqual(["unsupported", "claim", "done"]);
    expect(droppedStreamed.events.at(-1)).toEqual({ event: "done", data: dropped.json });
  });

  it("pools a sentence's support over spans, explains a quotation off only in case and names found_in, JSON, streamed and eval", async () => {
    const { gateway, service } = await startWithGateway();
    const history = {
      id: "history",
      text: "Northwind opened its first depot on 3 March 2019. The depot was built by local firms. Its roof holds solar panels. Staff planted a garden beside it. The depot ships blue widgets to Lyon.",
    };
    const pooled = "The depot has solar panels on its roof and ships blue widgets to Lyon [history].";
    const quoted = 'The report says "northwind was founded in 2016" [report].';
    const elsewhere = "The company employs 240 people [history].";
    gateway.script(() => `${pooled} ${quoted} ${elsewhere}`);
    const body = textBody({ sources: [report, history], explain: true });

    const json = (await post(service.url, body)).json;
    const streamed = await post(service.url, { ...body, stream: true });
    const evaluated = await evalText(service.url, {
      cases: [{ id: "a", messages: question, sources: [report, history] }],
      explain: true,
    });
    const unexplained = await evalText(service.url, {
      cases: [{ id: "a", messages: question, sources: [report, history] }],
    });

    // Pooled: one sentence, two spans of its source, each listed as a citation at the sentence's answer_range.
    expect(
      json.citations.map((citation: { quote: string; answer_range: number[] }) => [
        citation.quote,
        citation.answer_range,
      ]),
    ).toEqual([
      ["The depot ships blue widgets to Lyon.", [0, pooled.length]],
      ["Its roof holds solar panels.", [0, pooled.length]],
    ]);
    expect(json.unsupported).toEqual([
      expect.objectContaining({
        reason: "quote_not_found",
        detail: {
          quotation: "northwind was founded in 2016",
          differs_only_in: "first_letter_case",
          source_text: "Northwind was founded in 2016",
        },
      }),
      expect.objectContaining({ reason: "wrong_source", detail: { found_in: ["report"] } }),
    ]);
    expect(streamed.events).toEqual([...eventsOf(json), { event: "done", data: json }]);
    // Eval's details carry the same, the case-only quotation's detail with explain, found_in always.
    const result = evaluated.json.cases[0].result;
    expect(result.citations).toEqual(json.citations);
    expect(result.unsupported).toEqual(json.unsupported);
    expect(
      unexplained.json.cases[0].result.unsupported.map((item: { reason: string; detail?: unknown }) => [
        item.reason,
        item.detail,
      ]),
    ).toEqual([
      ["quote_not_found", undefined],
      ["wrong_source", { found_in: ["report"] }],
    ]);
  });

  it("returns the model's answer as written, which every answer_range counts into once a sentence is dropped", async () => {
    const { gateway, service } = await startWithGateway();
    const partly = "Northwind was founded in 2016 in Lyon with great ambition [report].";
    const answer = `${invented} ${partly}`;
    gateway.script(() => answer);

    const json = (await post(service.url, textBody())).json;
    const streamed = await post(service.url, textBody({ stream: true }));
    const inCodePoints = (await post(service.url, textBody({ offsets: "codepoint" }))).json;
    const evaluated = await evalText(service.url);
    const claims = (await post(service.url, { ...textBody(), answer_format: "json" })).json;

    expect(json.text).toBe(partly);
    expect(json.answer).toBe(answer);
    // `text` lost the dropped sentence, so its offsets moved; `answer` is what the ranges index.
    expect(json.partial.map((term: { term: string }) => term.term)).toEqual(["great", "ambition"]);
    for (const term of json.partial) expect(answer.slice(...term.answer_range)).toBe(term.term);
    for (const item of [...json.citations, ...json.unsupported])
      expect(answer.slice(...item.answer_range)).toContain(item.claim.slice(0, -1));
    expect(streamed.events.at(-1)).toEqual({ event: "done", data: json });
    expect(inCodePoints.answer).toBe(answer);
    expect(evaluated.json.cases[0].result).toMatchObject({ text: partly, answer, partial: json.partial });
    // Claims with quotes have no answer_range, and no answer.
    expect(claims).not.toHaveProperty("answer");
  });

  it("runs eval cases in text format with the partial policy, each case's partial words in its details", async () => {
    const { gateway, service } = await startWithGateway();
    const partly = "Northwind was founded in 2016 in Lyon with great ambition [report].";
    gateway.script(() => partly);
    const kept = await evalText(service.url);
    const dropped = await evalText(service.url, { partial: "drop" });

    expect(kept.status).toBe(200);
    expect(kept.json.cases[0]).toMatchObject({ id: "a", coverage: 1, citations: 1, unsupported: 0 });
    const at = (word: string) => [partly.indexOf(word), partly.indexOf(word) + word.length];
    expect(kept.json.cases[0].result.partial).toEqual([
      {
        claim: "Northwind was founded in 2016 in Lyon with great ambition.",
        term: "great",
        answer_range: at("great"),
      },
      {
        claim: "Northwind was founded in 2016 in Lyon with great ambition.",
        term: "ambition",
        answer_range: at("ambition"),
      },
    ]);
    expect(dropped.status).toBe(200);
    expect(dropped.json.cases[0]).toMatchObject({ id: "a", coverage: 0, citations: 0, unsupported: 1 });
    expect(dropped.json.cases[0].result.unsupported[0].reason).toBe("partial_support");
    expect(dropped.json.cases[0].result.partial).toEqual([]);
  });

  it("runs eval cases in text format", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => `${supported} ${invented}`);

    const { json } = await evalText(service.url);

    expect(json.cases[0]).toMatchObject({ id: "a", coverage: 0.5, citations: 1, unsupported: 1 });
    expect(json.cases[0].result.text).toBe(supported);
    expect(chatBody(gateway.calls[0]).response_format).toBeUndefined();
  });
});
