import { describe, expect, it } from "vitest";
import { rangeOf, report, startWithGateway, startWithoutGateway, table } from "./harness.js";

// POST /v1/verified/check: the verification core over HTTP, with no model.

describe("POST /v1/verified/check", () => {
  it("takes at most 1,000 claims, since the check runs on the event loop", async () => {
    const service = await startWithoutGateway();
    const claim = { quote: "Lyon", source: "report" };

    const atLimit = await service.post("/v1/verified/check", {
      sources: [report],
      claims: Array(1000).fill(claim),
    });
    const overLimit = await service.post("/v1/verified/check", {
      sources: [report],
      claims: Array(1001).fill(claim),
    });

    expect(atLimit.status).toBe(200);
    expect(overLimit).toMatchObject({
      status: 400,
      body: {
        error: {
          type: "invalid_request",
          code: "invalid_request",
          message: '"claims" holds more than 1000 items.',
          param: "claims",
        },
      },
    });
  });

  it("verifies the caller's claims with no model call", async () => {
    const { gateway, service } = await startWithGateway();

    const response = await service.post("/v1/verified/check", {
      sources: [report, table],
      claims: [
        { claim: "It was founded in Lyon.", quote: "founded in 2016 in Lyon", source: "report" },
        // No claim text: the quote stands for it.
        { quote: "The company employs 240 people.", source: "report" },
        { claim: "Profit doubled.", quote: "profit doubled", source: "report" },
        { claim: "It has a brochure.", quote: "Lyon", source: "brochure" },
      ],
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      text: "It was founded in Lyon [report]. The company employs 240 people [report].",
      citations: [
        {
          claim: "It was founded in Lyon.",
          quote: "founded in 2016 in Lyon",
          source: "report",
          range: rangeOf(report, "founded in 2016 in Lyon"),
        },
        {
          claim: "The company employs 240 people.",
          quote: "The company employs 240 people.",
          source: "report",
          range: rangeOf(report, "The company employs 240 people."),
        },
      ],
      unsupported: [
        { claim: "Profit doubled.", reason: "quote_not_found", quote: "profit doubled", source: "report" },
        { claim: "It has a brochure.", reason: "unknown_source", quote: "Lyon", source: "brochure" },
      ],
      coverage: 0.5,
      usage: { model_calls: 0, total_tokens: 0 },
    });
    expect(gateway.calls).toHaveLength(0);
  });

  it("works with no gateway configured", async () => {
    const service = await startWithoutGateway();

    const response = await service.post("/v1/verified/check", {
      sources: [report],
      claims: [{ quote: "Lyon", source: "report" }],
    });

    expect(response.status).toBe(200);
    expect(response.body.coverage).toBe(1);
  });

  it.each([
    { checkNumbers: undefined, grounded: [true, true, true] },
    { checkNumbers: true, grounded: [true, true, true] },
    { checkNumbers: "row", grounded: [true, false, false] },
    { checkNumbers: "quote", grounded: [true, true, false] },
  ])("check_numbers $checkNumbers", async ({ checkNumbers, grounded }) => {
    const { service } = await startWithGateway();
    const quote = "| Q3 | 1,250 | 230 |";
    const claims = ["Q3 revenue was 1,250.", "Q3 revenue was 230.", "Q3 revenue was 1,100."].map((claim) => ({
      claim,
      quote,
      source: "table",
    }));

    const response = await service.post("/v1/verified/check", {
      sources: [table],
      claims,
      ...(checkNumbers === undefined ? {} : { check_numbers: checkNumbers }),
    });

    expect(response.status).toBe(200);
    expect(response.body.citations.map((citation: { claim: string }) => citation.claim)).toEqual(
      claims.filter((_, index) => grounded[index]).map((claim) => claim.claim),
    );
    expect(response.body.unsupported).toEqual(
      claims
        .filter((_, index) => !grounded[index])
        .map((claim) => ({
          claim: claim.claim,
          reason: "number_not_found",
          quote: claim.quote,
          source: claim.source,
        })),
    );
  });

  it("explain: a claim the number check drops says which number failed and the cells it was checked against", async () => {
    const { service } = await startWithGateway();
    const quote = "| Q3 | 1,250 | 230 |";

    const response = await service.post("/v1/verified/check", {
      sources: [table],
      claims: [{ claim: "Q3 revenue was 230.", quote, source: "table" }],
      check_numbers: "row",
      explain: true,
    });

    expect(response.status).toBe(200);
    expect(response.body.unsupported).toEqual([
      {
        claim: "Q3 revenue was 230.",
        reason: "number_not_found",
        detail: { number: "230", checked: "cells", cells: [{ row: "Q3", column: "Revenue", text: "1,250" }] },
        quote,
        source: "table",
      },
    ]);
  });

  it("lenient mode reports the source's own text", async () => {
    const { service } = await startWithGateway();

    const response = await service.post("/v1/verified/check", {
      sources: [report],
      claims: [{ quote: "REVENUE FOR 2024 WAS 18.4 MILLION", source: "report" }],
      mode: "lenient",
    });

    expect(response.status).toBe(200);
    expect(response.body.citations).toEqual([
      {
        claim: "REVENUE FOR 2024 WAS 18.4 MILLION",
        quote: "Revenue for 2024 was $18.4 million",
        source: "report",
        range: rangeOf(report, "Revenue for 2024 was $18.4 million"),
      },
    ]);
  });

  it("no claims: coverage 0 and empty text", async () => {
    const { service } = await startWithGateway();

    const response = await service.post("/v1/verified/check", { sources: [report], claims: [] });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      text: "",
      citations: [],
      unsupported: [],
      coverage: 0,
      usage: { model_calls: 0, total_tokens: 0 },
    });
  });
});
