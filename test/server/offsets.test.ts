import { describe, expect, it } from "vitest";
import { Verified } from "../../src/client/index.js";
import type { Source } from "../../src/core/types.js";
import type { OffsetUnit } from "../../src/wire/index.js";
import { parseEventStream } from "../support/event-stream.js";
import { claimFrom, claimsContent, question, startWithGateway } from "./harness.js";

// `offsets` on every endpoint that returns a range: each range, cut from its source the way the unit's
// language cuts text (JavaScript by UTF-16 code unit, Python by code point, a byte buffer by UTF-8 byte),
// gives the quote back.

const notes: Source = {
  id: "notes",
  text: "😀 Café\r\nThe cafe\u0301 opened in 𝔘lm in 2019.\r\n👩🏽‍💻 Orders over $50 ship free.",
};
const opened = claimFrom(notes, "opened in 𝔘lm in 2019.");
const orders = claimFrom(notes, "Orders over $50 ship free.");
const units: OffsetUnit[] = ["utf16", "codepoint", "utf8"];

/** The text `range` names in `unit`, cut as that unit's language cuts it. */
function sliceIn(unit: OffsetUnit, text: string, [start, end]: [number, number]): string {
  if (unit === "utf16") return text.slice(start, end);
  if (unit === "codepoint") return Array.from(text).slice(start, end).join("");
  return Buffer.from(text, "utf8").subarray(start, end).toString("utf8");
}

/** Every range of a citation list, cut in `unit`, next to its quote. */
const cut = (unit: OffsetUnit, citations: { quote: string; range: [number, number] }[]) =>
  citations.map((citation) => [sliceIn(unit, notes.text, citation.range), citation.quote]);

const expected = [
  [opened.quote, opened.quote],
  [orders.quote, orders.quote],
];

async function post(url: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.text();
}

describe("offsets", () => {
  it.each(units)("create (JSON and streamed) counts ranges in %s", async (unit) => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(opened, orders), claimsContent(opened, orders)]);
    const body = { model: "gpt-test", messages: question, sources: [notes], offsets: unit };

    const json = JSON.parse(await post(service.url, "/v1/verified", body));
    const { events } = parseEventStream(await post(service.url, "/v1/verified", { ...body, stream: true }));

    expect(cut(unit, json.citations)).toEqual(expected);
    const claims = events.filter((event) => event.event === "claim").map((event) => event.data);
    expect(cut(unit, claims)).toEqual(expected);
    expect(events.at(-1)?.data.citations).toEqual(json.citations);
  });

  it.each(units)("check counts ranges in %s", async (unit) => {
    const { service } = await startWithGateway();
    const response = await service.post("/v1/verified/check", {
      sources: [notes],
      claims: [opened, orders],
      offsets: unit,
    });
    expect(cut(unit, response.body.citations)).toEqual(expected);
  });

  it.each(units)("extract counts ranges in %s", async (unit) => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([
      JSON.stringify({
        fields: { city: { value: "𝔘lm", source: "notes" }, year: { value: "2019", source: null } },
      }),
    ]);
    const response = await service.post("/v1/verified/extract", {
      model: "gpt-test",
      sources: [notes],
      schema: { city: "the city", year: "the year it opened" },
      offsets: unit,
    });
    const { city, year } = response.body.fields;
    expect([sliceIn(unit, notes.text, city.range), sliceIn(unit, notes.text, year.range)]).toEqual([
      "𝔘lm",
      "2019",
    ]);
  });

  it.each(units)("eval with details (JSON and streamed) counts each case's ranges in %s", async (unit) => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => claimsContent(opened, orders));
    const body = {
      model: "gpt-test",
      cases: [
        { messages: question, sources: [notes] },
        { id: "second", messages: question, sources: [notes] },
      ],
      details: true,
      offsets: unit,
    };

    const json = JSON.parse(await post(service.url, "/v1/verified/eval", body));
    const { events } = parseEventStream(
      await post(service.url, "/v1/verified/eval", { ...body, stream: true }),
    );

    for (const testCase of json.cases) expect(cut(unit, testCase.result.citations)).toEqual(expected);
    for (const event of events.filter((item) => item.event === "case"))
      expect(cut(unit, event.data.result.citations)).toEqual(expected);
    expect(events.at(-1)?.data).toEqual(json);
  });

  // A prose answer (`answer_format: "text"`): every `answer_range` counts into the model's answer, in the
  // request's unit, on create (JSON and streamed) and eval's details (JSON and streamed), as on check.
  const prose =
    "😀 The cafe\u0301 opened in 𝔘lm in 2019 [notes].\r\n👩🏽‍💻 Orders over $50 ship free [notes].";
  const proseRanges = (result: {
    citations: { answer_range: [number, number] }[];
    unsupported: { answer_range: [number, number] }[];
  }) => [...result.citations, ...result.unsupported].map((entry) => entry.answer_range);
  const proseSlices = (unit: OffsetUnit, ranges: [number, number][]) =>
    ranges.map((range) => sliceIn(unit, prose, range));

  it.each(units)("a prose answer's answer_range counts in %s on create, eval and check", async (unit) => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => prose);
    const createBody = { model: "gpt-test", messages: question, sources: [notes], answer_format: "text" };
    const evalBody = {
      model: "gpt-test",
      cases: [{ messages: question, sources: [notes] }],
      answer_format: "text",
      details: true,
    };
    const first = JSON.parse(await post(service.url, "/v1/verified", createBody));

    const inUtf16 = proseRanges(first);
    const expectedSlices = proseSlices("utf16", inUtf16);
    expect(expectedSlices.join("")).toContain("Orders over $50 ship free [notes].");

    const created = JSON.parse(await post(service.url, "/v1/verified", { ...createBody, offsets: unit }));
    const streamed = parseEventStream(
      await post(service.url, "/v1/verified", { ...createBody, offsets: unit, stream: true }),
    ).events;
    const evaluated = JSON.parse(
      await post(service.url, "/v1/verified/eval", { ...evalBody, offsets: unit }),
    );
    const evalStreamed = parseEventStream(
      await post(service.url, "/v1/verified/eval", { ...evalBody, offsets: unit, stream: true }),
    ).events;
    const checked = await service.post("/v1/verified/check", {
      sources: [notes],
      answer: prose,
      offsets: unit,
    });

    const eventRanges = streamed
      .filter((event) => event.event === "claim" || event.event === "unsupported")
      .map((event) => event.data.answer_range);
    const evalCase = evalStreamed.find((event) => event.event === "case")?.data;
    for (const ranges of [
      proseRanges(created),
      eventRanges,
      proseRanges(streamed.at(-1)?.data),
      proseRanges(evaluated.cases[0].result),
      proseRanges(evalCase.result),
      proseRanges(checked.body),
    ]) {
      expect(proseSlices(unit, ranges)).toEqual(expectedSlices);
    }
  });

  it("differs between the units on this text, so each unit is really tested", async () => {
    const { service } = await startWithGateway();
    const ranges = await Promise.all(
      units.map(async (offsets) => {
        const response = await service.post("/v1/verified/check", {
          sources: [notes],
          claims: [orders],
          offsets,
        });
        return response.body.citations[0].range;
      }),
    );
    expect(new Set(ranges.map(String)).size).toBe(3);
  });

  it.each(units)("the TypeScript client sends offsets: %s", async (unit) => {
    const { service } = await startWithGateway();
    const client = new Verified({ baseURL: service.url, apiKey: "test-key" });
    const result = await client.check({ sources: [notes], claims: [opened, orders], offsets: unit });
    expect(cut(unit, result.citations)).toEqual(expected);
  });

  it("rejects an unknown unit with the parameter named", async () => {
    const { service } = await startWithGateway();
    const response = await service.post("/v1/verified/check", {
      sources: [notes],
      claims: [],
      offsets: "utf32",
    });
    expect(response.status).toBe(400);
    expect(response.body.error.param).toBe("offsets");
  });
});
