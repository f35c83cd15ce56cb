import { describe, expect, it } from "vitest";
import {
  chatBody,
  claimFrom,
  claimsContent,
  type ModelClaim,
  question,
  rangeOf,
  report,
  scriptedUsage,
  startWithGateway,
  table,
} from "./harness.js";

const founded = claimFrom(report, "Northwind was founded in 2016 in Lyon.");
const revenue = claimFrom(
  report,
  "Revenue for 2024 was $18.4 million",
  "Revenue for 2024 was $18.4 million.",
);
const staff = claimFrom(report, "The company employs 240 people.");
const invented: ModelClaim = { claim: "Profit doubled.", quote: "profit doubled", source: "report" };
const wrongSource: ModelClaim = { claim: "It has 240 staff.", quote: "240 people", source: "brochure" };

const citation = (claim: ModelClaim, source = report) => ({
  claim: claim.claim,
  quote: claim.quote,
  source: claim.source,
  range: rangeOf(source, claim.quote),
});

const createBody = (extra: Record<string, unknown> = {}) => ({
  model: "gpt-test",
  messages: question,
  sources: [report, table],
  ...extra,
});

describe("POST /v1/verified: claims and citations", () => {
  it("returns grounded claims with ranges into the source and marked text", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(founded, revenue)]);

    const response = await service.post("/v1/verified", createBody());

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: "vfd_test",
      model: "gpt-test",
      text: "Northwind was founded in 2016 in Lyon [report]. Revenue for 2024 was $18.4 million [report].",
      citations: [citation(founded), citation(revenue)],
      unsupported: [],
      coverage: 1,
      abstained: false,
      grounded: true,
      usage: scriptedUsage(1),
    });
    for (const item of response.body.citations as { quote: string; range: [number, number] }[]) {
      expect(report.text.slice(item.range[0], item.range[1])).toBe(item.quote);
    }
    expect(gateway.calls).toHaveLength(1);
  });

  it("removes claims it cannot ground and says why", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(founded, invented, wrongSource)]);

    const response = await service.post("/v1/verified", createBody());

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: "vfd_test",
      model: "gpt-test",
      text: "Northwind was founded in 2016 in Lyon [report].",
      citations: [citation(founded)],
      unsupported: [
        { claim: "Profit doubled.", reason: "quote_not_found", quote: "profit doubled", source: "report" },
        { claim: "It has 240 staff.", reason: "unknown_source", quote: "240 people", source: "brochure" },
      ],
      coverage: 1 / 3,
      abstained: false,
      grounded: true,
      usage: scriptedUsage(1),
    });
  });

  it("accepts the JSON inside a code fence after prose", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([`Here you go:\n\`\`\`json\n${claimsContent(founded)}\n\`\`\`\nHope it helps.`]);

    const response = await service.post("/v1/verified", createBody());

    expect(response.status).toBe(200);
    expect(response.body.citations).toEqual([citation(founded)]);
  });

  it("re-asks once after unusable output, then succeeds", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith(["I think the answer is yes.", claimsContent(founded)]);

    const response = await service.post("/v1/verified", createBody());

    expect(response.status).toBe(200);
    expect(response.body.citations).toEqual([citation(founded)]);
    expect(response.body.usage).toEqual(scriptedUsage(2));
    const [first, reask] = gateway.calls.map(chatBody);
    expect(reask?.messages.slice(0, -2)).toEqual(first?.messages);
    expect(reask?.messages.at(-2)).toEqual({ role: "assistant", content: "I think the answer is yes." });
    expect(reask?.messages.at(-1)).toEqual({
      role: "user",
      content: expect.stringContaining("not valid JSON"),
    });
  });
});

describe("POST /v1/verified: retry", () => {
  it("makes one call when retry is not given, even with unsupported claims", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(founded, invented)]);

    const response = await service.post("/v1/verified", createBody());

    expect(response.status).toBe(200);
    expect(response.body.coverage).toBe(0.5);
    expect(gateway.calls).toHaveLength(1);
  });

  it("tells the model which quotes failed and why, and stops at the first fully grounded attempt", async () => {
    const { gateway, service } = await startWithGateway();
    const firstOutput = claimsContent(founded, invented, wrongSource);
    gateway.script.replyWith([firstOutput, claimsContent(founded, staff), claimsContent(invented)]);

    const response = await service.post("/v1/verified", createBody({ retry: 3 }));

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: "vfd_test",
      model: "gpt-test",
      text: "Northwind was founded in 2016 in Lyon [report]. The company employs 240 people [report].",
      citations: [citation(founded), citation(staff)],
      unsupported: [],
      coverage: 1,
      abstained: false,
      grounded: true,
      usage: scriptedUsage(2),
    });
    expect(gateway.calls).toHaveLength(2);

    const [first, retry] = gateway.calls.map(chatBody);
    // The retry keeps the whole first conversation, then the model's answer and the feedback.
    expect(retry?.messages.slice(0, -2)).toEqual(first?.messages);
    expect(retry?.messages.at(-2)).toEqual({ role: "assistant", content: firstOutput });
    const feedback = retry?.messages.at(-1);
    expect(feedback?.role).toBe("user");
    expect(feedback?.content).toContain(
      '- quote "profit doubled" from source "report": this text does not occur in that source',
    );
    expect(feedback?.content).toContain('- quote "240 people" from source "brochure": no source has that id');
    // The grounded claim is not reported as a failure.
    expect(feedback?.content).not.toContain("founded in 2016");
  });

  it("explains a failed number check in the feedback", async () => {
    const { gateway, service } = await startWithGateway();
    const wrongNumber = claimFrom(
      report,
      "Revenue for 2024 was $18.4 million",
      "Revenue for 2024 was $19 million.",
    );
    gateway.script.replyWith([claimsContent(wrongNumber), claimsContent(revenue)]);

    const response = await service.post("/v1/verified", createBody({ retry: 1, check_numbers: true }));

    expect(response.status).toBe(200);
    expect(response.body.citations).toEqual([citation(revenue)]);
    const feedback = chatBody(gateway.calls[1]).messages.at(-1)?.content;
    expect(feedback).toContain(
      '- quote "Revenue for 2024 was $18.4 million" from source "report": a number in the claim is not in the cited source',
    );
  });

  it("returns the attempt with the highest coverage, ties going to more citations, and sums usage", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([
      // 1 of 2 grounded
      claimsContent(founded, invented),
      // 2 of 4 grounded: the same coverage with more citations wins
      claimsContent(revenue, invented, staff, wrongSource),
      // 0 of 1
      claimsContent(invented),
    ]);

    const response = await service.post("/v1/verified", createBody({ retry: 2 }));

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: "vfd_test",
      model: "gpt-test",
      text: "Revenue for 2024 was $18.4 million [report]. The company employs 240 people [report].",
      citations: [citation(revenue), citation(staff)],
      unsupported: [
        { claim: "Profit doubled.", reason: "quote_not_found", quote: "profit doubled", source: "report" },
        { claim: "It has 240 staff.", reason: "unknown_source", quote: "240 people", source: "brochure" },
      ],
      coverage: 0.5,
      abstained: false,
      grounded: true,
      usage: scriptedUsage(3),
    });
  });

  it("keeps the earlier attempt on a full tie", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(founded, invented), claimsContent(staff, invented)]);

    const response = await service.post("/v1/verified", createBody({ retry: 1 }));

    expect(response.status).toBe(200);
    expect(response.body.citations).toEqual([citation(founded)]);
    expect(response.body.usage.model_calls).toBe(2);
  });

  it("keeps an earlier usable attempt when a retry's output is unusable", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(founded, invented), "nope", "still nope"]);

    const response = await service.post("/v1/verified", createBody({ retry: 1 }));

    expect(response.status).toBe(200);
    expect(response.body.citations).toEqual([citation(founded)]);
    expect(response.body.usage).toEqual(scriptedUsage(3));
  });
});

describe("POST /v1/verified: check_numbers", () => {
  const overstated = claimFrom(
    report,
    "Revenue for 2024 was $18.4 million",
    "Revenue for 2024 was $19.4 million.",
  );
  const q3Quote = "| Q3 | 1,250 | 230 |";
  const q3Revenue = claimFrom(table, q3Quote, "Q3 revenue was 1,250.");
  const q3ProfitAsRevenue = claimFrom(table, q3Quote, "Q3 revenue was 230.");
  const q2RevenueAsQ3 = claimFrom(table, q3Quote, "Q3 revenue was 1,100.");
  const all = [overstated, q3Revenue, q3ProfitAsRevenue, q2RevenueAsQ3];

  it.each([
    {
      name: "off: every quote that matches is grounded",
      checkNumbers: undefined,
      grounded: all,
    },
    {
      name: "true: a number absent from the cited source is dropped",
      checkNumbers: true,
      grounded: [q3Revenue, q3ProfitAsRevenue, q2RevenueAsQ3],
    },
    {
      name: '"source": same as true',
      checkNumbers: "source",
      grounded: [q3Revenue, q3ProfitAsRevenue, q2RevenueAsQ3],
    },
    {
      name: '"row": the number must be in the named row and column',
      checkNumbers: "row",
      grounded: [q3Revenue],
    },
  ])("$name", async ({ checkNumbers, grounded }) => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(...all)]);

    const response = await service.post(
      "/v1/verified",
      createBody(checkNumbers === undefined ? {} : { check_numbers: checkNumbers }),
    );

    expect(response.status).toBe(200);
    expect(response.body.citations).toEqual(
      grounded.map((claim) => citation(claim, claim.source === "table" ? table : report)),
    );
    expect(response.body.unsupported).toEqual(
      all
        .filter((claim) => !grounded.includes(claim))
        .map((claim) => ({
          claim: claim.claim,
          reason: "number_not_found",
          quote: claim.quote,
          source: claim.source,
        })),
    );
    expect(response.body.coverage).toBe(grounded.length / all.length);
  });
});

describe("POST /v1/verified: min_coverage", () => {
  it.each([
    { minCoverage: undefined, abstained: false },
    { minCoverage: 0, abstained: false },
    { minCoverage: 0.5, abstained: false },
    { minCoverage: 0.6, abstained: true },
    { minCoverage: 1, abstained: true },
  ])(
    "coverage 0.5 with min_coverage $minCoverage → abstained $abstained",
    async ({ minCoverage, abstained }) => {
      const { gateway, service } = await startWithGateway();
      gateway.script.replyWith([claimsContent(founded, invented)]);

      const response = await service.post(
        "/v1/verified",
        createBody(minCoverage === undefined ? {} : { min_coverage: minCoverage }),
      );

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: "vfd_test",
        model: "gpt-test",
        text: "Northwind was founded in 2016 in Lyon [report].",
        citations: [citation(founded)],
        unsupported: [
          { claim: "Profit doubled.", reason: "quote_not_found", quote: "profit doubled", source: "report" },
        ],
        coverage: 0.5,
        abstained,
        grounded: true,
        usage: scriptedUsage(1),
      });
    },
  );
});

describe("POST /v1/verified: allow_ungrounded", () => {
  it("without it, a question nothing grounds is 422 ungrounded with the unsupported claims", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(invented, wrongSource)]);

    const response = await service.post("/v1/verified", createBody());

    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: {
        request_id: expect.any(String),
        type: "ungrounded",
        code: "ungrounded",
        message:
          'None of the model\'s 2 claims could be grounded in the sources. See "unsupported" for why; set allow_ungrounded for a flagged plain answer.',
        unsupported: [
          { claim: "Profit doubled.", reason: "quote_not_found", quote: "profit doubled", source: "report" },
          { claim: "It has 240 staff.", reason: "unknown_source", quote: "240 people", source: "brochure" },
        ],
      },
    });
    expect(gateway.calls).toHaveLength(1);
  });

  it("without it, an answer with no claims at all is 422 ungrounded", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent()]);

    const response = await service.post("/v1/verified", createBody());

    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: {
        request_id: expect.any(String),
        type: "ungrounded",
        code: "ungrounded",
        message:
          "The model made no claim the sources support. Add sources that answer the question, or set allow_ungrounded for a flagged plain answer.",
        unsupported: [],
      },
    });
  });

  it("with it, makes one more call for a plain answer flagged grounded: false", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(invented, wrongSource), "  It probably did well.  "]);

    const response = await service.post(
      "/v1/verified",
      createBody({ allow_ungrounded: true, temperature: 0.3, max_tokens: 200 }),
    );

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: "vfd_test",
      model: "gpt-test",
      text: "It probably did well.",
      citations: [],
      unsupported: [
        { claim: "Profit doubled.", reason: "quote_not_found", quote: "profit doubled", source: "report" },
        { claim: "It has 240 staff.", reason: "unknown_source", quote: "240 people", source: "brochure" },
      ],
      coverage: 0,
      abstained: false,
      grounded: false,
      usage: scriptedUsage(2),
    });
    expect(gateway.calls).toHaveLength(2);
    const plain = chatBody(gateway.calls[1]);
    // A plain answer asks for text: no response_format, the caller's messages last, the options passed on.
    expect(plain).toEqual({
      model: "gpt-test",
      messages: [{ role: "system", content: expect.any(String) }, ...question],
      temperature: 0.3,
      max_tokens: 200,
    });
    // The sources are not in the plain-answer prompt.
    expect(JSON.stringify(plain)).not.toContain("Northwind was founded");
  });

  it("with it, the plain answer comes after every retry failed", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(invented), claimsContent(), "Plain."]);

    const response = await service.post("/v1/verified", createBody({ allow_ungrounded: true, retry: 1 }));

    expect(response.status).toBe(200);
    expect(response.body.grounded).toBe(false);
    expect(response.body.text).toBe("Plain.");
    expect(response.body.unsupported).toEqual([
      { claim: "Profit doubled.", reason: "quote_not_found", quote: "profit doubled", source: "report" },
    ]);
    expect(response.body.usage).toEqual(scriptedUsage(3));
  });

  it("with it, and min_coverage set, the plain answer is abstained", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(), "Plain."]);

    const response = await service.post(
      "/v1/verified",
      createBody({ allow_ungrounded: true, min_coverage: 0.1 }),
    );

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ grounded: false, coverage: 0, abstained: true });
  });
});

describe("POST /v1/verified: empty sources", () => {
  it("is 400 no_sources without allow_ungrounded, before any model call", async () => {
    const { gateway, service } = await startWithGateway();

    const response = await service.post("/v1/verified", createBody({ sources: [] }));

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        request_id: expect.any(String),
        type: "no_sources",
        code: "no_sources",
        message: '"sources" is empty; supply at least one source.',
        param: "sources",
      },
    });
    expect(gateway.calls).toHaveLength(0);
  });

  it("goes straight to the plain answer with allow_ungrounded", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith(["No sources, so: probably."]);

    const response = await service.post("/v1/verified", createBody({ sources: [], allow_ungrounded: true }));

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: "vfd_test",
      model: "gpt-test",
      text: "No sources, so: probably.",
      citations: [],
      unsupported: [],
      coverage: 0,
      abstained: false,
      grounded: false,
      usage: scriptedUsage(1),
    });
    expect(gateway.calls).toHaveLength(1);
    expect(chatBody(gateway.calls[0]).response_format).toBeUndefined();
  });
});

describe("POST /v1/verified: mode", () => {
  const loose: ModelClaim = {
    claim: "Revenue was $18.4 million.",
    quote: "revenue for 2024 was 18.4 million",
    source: "report",
  };

  it("strict (the default) needs the quote boundary-exact", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(founded, loose), claimsContent(founded, loose)]);

    for (const mode of [undefined, "strict"]) {
      const response = await service.post("/v1/verified", createBody(mode === undefined ? {} : { mode }));
      expect(response.status).toBe(200);
      expect(response.body.citations).toEqual([citation(founded)]);
      expect(response.body.unsupported).toEqual([
        {
          claim: loose.claim,
          reason: "quote_not_found",
          quote: loose.quote,
          source: "report",
          // Strict mode names where the quote is under lenient matching.
          near: {
            quote: "Revenue for 2024 was $18.4 million",
            range: rangeOf(report, "Revenue for 2024 was $18.4 million"),
          },
        },
      ]);
    }
  });

  it("lenient ignores case and punctuation and reports the source's own text and range", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([claimsContent(founded, loose)]);

    const response = await service.post("/v1/verified", createBody({ mode: "lenient" }));

    expect(response.status).toBe(200);
    const original = "Revenue for 2024 was $18.4 million";
    expect(response.body.citations).toEqual([
      citation(founded),
      { claim: loose.claim, quote: original, source: "report", range: rangeOf(report, original) },
    ]);
    expect(response.body.coverage).toBe(1);
  });
});
