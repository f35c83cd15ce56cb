import { describe, expect, it } from "vitest";
import type { Source } from "../../core/index.js";
import type { CreateProgress } from "../claim-events.js";
import { createSentenceEvents, STREAM_CHECK_WORK_FACTOR } from "./sentence-events.js";

const report: Source = {
  id: "report",
  text: "Northwind was founded in 2016 in Lyon. Revenue for 2024 was $18.4 million. The company employs 240 people.",
};

function observe() {
  const events: CreateProgress[] = [];
  return { events, observer: { open: () => {}, progress: (event: CreateProgress) => events.push(event) } };
}

const rangeOf = (event: CreateProgress): unknown =>
  event.type === "claim"
    ? (event.citation as { answer_range?: unknown }).answer_range
    : event.type === "unsupported"
      ? (event.unsupported as { answer_range?: unknown }).answer_range
      : undefined;

describe("createSentenceEvents", () => {
  it("reports a sentence once the next one begins, with ranges into the whole answer, and the rest at settle", async () => {
    const { events, observer } = observe();
    const sentences = createSentenceEvents([report], {}, observer);
    const stream = sentences.nextCall();
    const first = "Northwind was founded in 2016 in Lyon [report]. ";
    const second = "It has a bakery in Paris [report]. ";
    const third = "The company employs 240 people [report].";

    // Each piece's check runs to its end (`idle`), however many turns it takes: no wait by time or turns.
    stream.onText(first);
    await sentences.idle();
    expect(events).toEqual([]);
    stream.onText(second);
    await sentences.idle();
    expect(events.map(rangeOf)).toEqual([[0, first.length - 1]]);
    stream.onText(third);
    await sentences.idle();
    expect(events).toHaveLength(2);
    expect(rangeOf(events[1] as CreateProgress)).toEqual([first.length, first.length + second.length - 1]);

    const answer = first + second + third;
    const result = await sentences.settle(answer);
    // The verdicts themselves, written out (not the same check run a second way).
    expect(result.text).toBe(`${first}${third}`);
    expect(result.citations.map((citation) => [citation.claim, citation.source])).toEqual([
      ["Northwind was founded in 2016 in Lyon.", "report"],
      ["The company employs 240 people.", "report"],
    ]);
    expect(result.unsupported.map((entry) => [entry.claim, entry.reason])).toEqual([
      ["It has a bakery in Paris.", "entity_not_found"],
    ]);
    expect(events.map((event) => event.type)).toEqual(["claim", "unsupported", "claim"]);
    expect(events.map(rangeOf)).toEqual([
      result.citations[0]?.answerRange,
      result.unsupported[0]?.answerRange,
      result.citations[1]?.answerRange,
    ]);
  });

  it("with large sources checks fewer, larger pieces: its work stays a bounded multiple of sources and answer", async () => {
    const large: Source = { id: "report", text: `${report.text} ${"Filler words here. ".repeat(2_000)}` };
    const { events, observer } = observe();
    let checks = 0;
    const sentences = createSentenceEvents([large], {}, observer, undefined, () => {
      checks += 1;
    });
    const stream = sentences.nextCall();
    const sentence = "The company employs 240 people [report]. ";
    const count = 32;
    for (let index = 0; index < count; index++) {
      stream.onText(sentence);
      await sentences.idle();
    }
    const streamed = events.length;
    const streamedChecks = checks;
    await sentences.settle(sentence.repeat(count));

    // Each streamed check reads the sources once; without the bound each sentence would have been checked
    // (and reported) as the next began: count - 1 checks.
    const answerChars = sentence.length * count;
    const allowed = Math.floor(
      (STREAM_CHECK_WORK_FACTOR * (large.text.length + answerChars)) / large.text.length,
    );
    expect(streamed).toBeGreaterThan(0);
    expect(streamedChecks).toBeGreaterThan(0);
    expect(streamedChecks).toBeLessThanOrEqual(allowed);
    expect(streamedChecks).toBeLessThan(count - 1);
    expect(events).toHaveLength(count);
  });

  it("reports every sentence at settle when the stream delivered nothing, and an attempt from the second call", async () => {
    const { events, observer } = observe();
    const sentences = createSentenceEvents([report], {}, observer);
    sentences.nextCall();
    const answer = "Northwind was founded in 2016 in Lyon [report]. It employs 240 people [report].";
    await sentences.settle(answer);
    sentences.nextCall();
    expect(events.map((event) => event.type)).toEqual(["claim", "claim", "attempt"]);
  });
  it("sends no event while the caller has not taken the one before (drained)", async () => {
    const answer = "Omega psi [report]. ".repeat(300);
    let waiting: (() => void) | undefined;
    let sentWhileWaiting = 0;
    let waits = 0;
    const events: CreateProgress[] = [];
    // A caller that takes each event a turn after it was sent: always backed up once an event is out.
    const observer = {
      open: () => {},
      progress: (event: CreateProgress) => {
        if (waiting !== undefined) sentWhileWaiting += 1;
        events.push(event);
      },
      drained: () => {
        waits += 1;
        return new Promise<void>((resolve) => {
          waiting = resolve;
          setImmediate(() => {
            waiting = undefined;
            resolve();
          });
        });
      },
    };
    const sentences = createSentenceEvents([report], {}, observer);
    const stream = sentences.nextCall();
    for (let at = 0; at < answer.length; at += 64) stream.onText(answer.slice(at, at + 64));
    await sentences.settle(answer);
    expect(events).toHaveLength(300);
    // Before, every event was sent at once, whatever the caller had taken: no wait at all.
    expect(waits).toBe(300);
    expect(sentWhileWaiting).toBe(0);
  });
});
