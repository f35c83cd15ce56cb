import { describe, expect, it } from "vitest";
import { EVAL_ANSWER_CHUNK_CHARS, MAX_ANSWER_BEST_SPAN_CHARS } from "../../src/limits.js";
import { rangeOf, report, startWithGateway, startWithoutGateway, table } from "./harness.js";

// POST /v1/verified/check in answer mode: a plain answer with citation markers, checked by code.

describe("POST /v1/verified/check with an answer", () => {
  it("checks each sentence against the source its marker names, with no model call", async () => {
    const { gateway, service } = await startWithGateway();
    const answer =
      "Northwind was founded in 2016 in Lyon [1]. It employs 240 people [report]. It employs 300 people [2].";

    const response = await service.post("/v1/verified/check", {
      sources: [report, table],
      answer,
      messages: [{ role: "user", content: "Where is Northwind based?" }],
      explain: true,
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      text: "Northwind was founded in 2016 in Lyon [1]. It employs 240 people [report].",
      citations: [
        {
          claim: "Northwind was founded in 2016 in Lyon.",
          quote: "Northwind was founded in 2016 in Lyon.",
          source: "report",
          range: rangeOf(report, "Northwind was founded in 2016 in Lyon."),
          support: 1,
          answer_range: [0, 42],
        },
        {
          claim: "It employs 240 people.",
          quote: "The company employs 240 people.",
          source: "report",
          range: rangeOf(report, "The company employs 240 people."),
          support: 1,
          answer_range: [43, 74],
        },
      ],
      unsupported: [
        // Not wrong_source: the report holds its words but not its number, and found_in names only a
        // source that supports the whole claim, numbers included.
        {
          claim: "It employs 300 people.",
          reason: "no_support",
          answer_range: [75, 101],
          detail: { words: ["employs", "people"] },
        },
      ],
      partial: [],
      coverage: 2 / 3,
      usage: { model_calls: 0, total_tokens: 0 },
    });
    expect(answer.slice(75, 101)).toBe("It employs 300 people [2].");
    expect(gateway.calls).toEqual([]);
  });

  it.each([
    ["both", { claims: [{ quote: "Lyon", source: "report" }], answer: "Lyon [1]." }, "answer", "both"],
    ["neither", {}, "claims", "neither"],
  ])("takes exactly one of claims and answer (%s is a 400 naming both)", async (_, fields, param, word) => {
    const service = await startWithoutGateway();
    const response = await service.post("/v1/verified/check", { sources: [report], ...fields });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code: "invalid_request", param });
    expect(response.body.error.message).toContain(`has ${word}`);
    expect(response.body.error.message).toContain('"claims"');
    expect(response.body.error.message).toContain('"answer"');
  });

  it("says in snake_case when a strict quotation differs from its source only in case", async () => {
    const service = await startWithoutGateway();
    const response = await service.post("/v1/verified/check", {
      sources: [report],
      answer: 'The report says "northwind was founded in 2016" [1].',
      explain: true,
    });
    expect(response.status).toBe(200);
    expect(response.body.unsupported[0]).toMatchObject({
      reason: "quote_not_found",
      detail: {
        quotation: "northwind was founded in 2016",
        differs_only_in: "first_letter_case",
        source_text: "Northwind was founded in 2016",
      },
    });
  });

  it("keeps a partly supported claim with each new word's answer_range in the offsets unit, or drops it", async () => {
    const service = await startWithoutGateway();
    // The globe is two UTF-16 code units and one code point: codepoint ranges after it are one less.
    const answer = "🌍 Northwind was founded in 2016 in Lyon with great ambition [report].";
    const claim = "🌍 Northwind was founded in 2016 in Lyon with great ambition.";
    const utf16 = await service.post("/v1/verified/check", { sources: [report], answer });
    const inCodePoints = await service.post("/v1/verified/check", {
      sources: [report],
      answer,
      offsets: "codepoint",
    });
    const dropped = await service.post("/v1/verified/check", {
      sources: [report],
      answer,
      partial: "drop",
      explain: true,
    });

    expect(utf16.body).toMatchObject({ unsupported: [], coverage: 1 });
    expect(utf16.body.partial).toEqual([
      { claim, term: "great", answer_range: [46, 51] },
      { claim, term: "ambition", answer_range: [52, 60] },
    ]);
    for (const term of utf16.body.partial) expect(answer.slice(...term.answer_range)).toBe(term.term);
    const codePoints = [...answer];
    expect(inCodePoints.body.partial).toEqual([
      { claim, term: "great", answer_range: [45, 50] },
      { claim, term: "ambition", answer_range: [51, 59] },
    ]);
    for (const term of inCodePoints.body.partial)
      expect(codePoints.slice(...term.answer_range).join("")).toBe(term.term);
    expect(inCodePoints.body.citations[0].answer_range).toEqual([0, [...answer].length]);
    expect(dropped.body).toMatchObject({ text: "", citations: [], partial: [], coverage: 0 });
    expect(dropped.body.unsupported).toEqual([
      expect.objectContaining({
        claim,
        reason: "partial_support",
        answer_range: [0, answer.length],
        detail: { words: ["great", "ambition"] },
      }),
    ]);
  });

  it("refuses a partial policy other than keep or drop, naming partial", async () => {
    const service = await startWithoutGateway();
    const response = await service.post("/v1/verified/check", {
      sources: [report],
      answer: "Northwind was founded in Lyon [1].",
      partial: "flag",
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      type: "invalid_request",
      code: "invalid_request",
      param: "partial",
    });
    expect(response.body.error.message).toContain('"partial"');
  });

  it("reads equivalent forms, pools support over sentences and checks each clause against its own marker", async () => {
    const service = await startWithoutGateway();
    const history = {
      id: "history",
      text: "Northwind opened its first depot on 3 March 2019. The depot was built by local firms. Its roof holds solar panels. Staff planted a garden beside it. The depot ships blue widgets to Lyon.",
    };
    const answer = [
      "Northwind opened its first depot on March 3, 2019 [history].",
      "Revenue for 2024 was $18.4M [report].",
      "Its first depot has solar panels on its roof and ships blue widgets to Lyon [history].",
      "Northwind was founded in Lyon [report], and its depot ships blue widgets [history].",
    ].join(" ");
    const response = await service.post("/v1/verified/check", { sources: [report, history], answer });
    expect(response.status).toBe(200);
    const citations = response.body.citations as { claim: string; quote: string; source: string }[];
    expect(citations.map(({ claim, quote, source }) => [claim, quote, source])).toEqual([
      [
        "Northwind opened its first depot on March 3, 2019.",
        "Northwind opened its first depot on 3 March 2019.",
        "history",
      ],
      ["Revenue for 2024 was $18.4M.", "Revenue for 2024 was $18.4 million, up 22% over 2023.", "report"],
      // Pooled: the claim's words stand on two sentences of the source, listed as two spans.
      [
        "Its first depot has solar panels on its roof and ships blue widgets to Lyon.",
        "The depot ships blue widgets to Lyon.",
        "history",
      ],
      [
        "Its first depot has solar panels on its roof and ships blue widgets to Lyon.",
        "Its roof holds solar panels.",
        "history",
      ],
      // Each clause stands on the source its own marker names.
      ["Northwind was founded in Lyon", "Northwind was founded in 2016 in Lyon.", "report"],
      ["and its depot ships blue widgets.", "The depot ships blue widgets to Lyon.", "history"],
    ]);
    expect(response.body).toMatchObject({ unsupported: [], coverage: 1 });
    // Neither span says the depot was the first: the pooled claim is kept with that word named.
    expect(response.body.partial).toEqual([
      {
        claim: "Its first depot has solar panels on its roof and ships blue widgets to Lyon.",
        term: "first",
        answer_range: [103, 108],
      },
    ]);
    expect(answer.slice(103, 108)).toBe("first");
  });

  it("refuses an answer over the limit with the param named", async () => {
    const service = await startWithoutGateway();
    const response = await service.post("/v1/verified/check", {
      sources: [report],
      answer: "a".repeat(4 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: "invalid_request", param: "answer" });
  });
});

describe("POST /v1/verified/check bounds an answer's claims", () => {
  it("writes the result of an answer longer than EVAL_ANSWER_CHUNK_CHARS in chunks", async () => {
    const service = await startWithoutGateway();
    const source = {
      id: "s",
      text: "The Northwind depot in Lyon ships blue widgets to every customer in the region on weekdays, and on Saturdays in December.",
    };
    const sentence =
      "The Northwind depot in Lyon ships blue widgets to every customer in the region on weekdays, and on Saturdays in December [s]. ";
    const short = await service.post("/v1/verified/check", { sources: [source], answer: sentence });
    const answer = sentence.repeat(Math.ceil((EVAL_ANSWER_CHUNK_CHARS + 1) / sentence.length));
    const long = await service.post("/v1/verified/check", { sources: [source], answer });
    expect(short.headers.get("content-length")).not.toBeNull();
    expect(long.status).toBe(200);
    expect(long.headers.get("content-length")).toBeNull();
    expect(long.headers.get("transfer-encoding")).toBe("chunked");
    expect(long.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const count = answer.length / sentence.length;
    // Every sentence kept: the text is the answer.
    expect(long.body.text === answer || long.body.text === answer.trimEnd()).toBe(true);
    expect(long.body.citations).toHaveLength(count);
    expect(long.body.citations.at(-1)).toEqual({
      ...short.body.citations[0],
      answer_range: [(count - 1) * sentence.length, count * sentence.length - 1],
    });
    expect(long.body).toMatchObject({
      unsupported: [],
      coverage: 1,
      usage: { model_calls: 0, total_tokens: 0 },
    });
  });

  it("lists dropped claims past MAX_ANSWER_BEST_SPAN_CHARS of best spans without their span", async () => {
    const service = await startWithoutGateway();
    // A 993-character source sentence, and 1,100 sentences whose quotation it lacks: 1,092,300 characters
    // of best spans unbounded.
    const long = { id: "s", text: `${"Alpha beta gamma delta ".repeat(43)}end.` };
    const response = await service.post("/v1/verified/check", {
      sources: [long],
      answer: 'It says "alpha beta gammma" [s]. '.repeat(1_100),
    });
    expect(response.status).toBe(200);
    const unsupported = response.body.unsupported as {
      reason: string;
      quote?: string;
      answer_range: number[];
    }[];
    expect(unsupported).toHaveLength(1_100);
    expect(unsupported.every((entry) => entry.reason === "quote_not_found")).toBe(true);
    const withSpan = unsupported.filter((entry) => entry.quote !== undefined);
    // floor(1,048,576 / 993) spans fit, and they are the first entries.
    expect(withSpan).toHaveLength(Math.floor(MAX_ANSWER_BEST_SPAN_CHARS / 993));
    expect(unsupported.slice(0, withSpan.length)).toEqual(withSpan);
    expect(unsupported[withSpan.length]).toEqual({
      claim: 'It says "alpha beta gammma".',
      reason: "quote_not_found",
      answer_range: [33 * withSpan.length, 33 * withSpan.length + 32],
    });
  });

  it("refuses more claims and clauses than MAX_ANSWER_CLAIMS, naming the answer", async () => {
    const service = await startWithoutGateway();
    const response = await service.post("/v1/verified/check", {
      sources: [report],
      answer: "Lyon. ".repeat(10_001),
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: "invalid_request",
      param: "answer",
      message: '"answer" holds more than 10,000 claims and clauses, the limit. Check a long answer in parts.',
    });
  });

  it("refuses more than twice as many markers before splitting the answer", async () => {
    const service = await startWithoutGateway();
    const response = await service.post("/v1/verified/check", {
      sources: [report],
      answer: `Lyon ${"[1]".repeat(20_001)}.`,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe(
      '"answer" holds more than 20,000 markers, the limit. Check a long answer in parts.',
    );
  });
});
