import { describe, expect, it } from "vitest";
import { errorReply, type ScriptedAnswer } from "../support/scripted-gateway.js";
import {
  chatBody,
  claimFrom,
  claimsContent,
  type ModelClaim,
  rangeOf,
  report,
  scriptedUsage,
  startWithGateway,
} from "./harness.js";

// Eval with `details: true` and case ids: each scored case carries its create-style result, every case its id.

const founded = claimFrom(report, "Northwind was founded in 2016 in Lyon.");
const invented: ModelClaim = { claim: "Profit doubled.", quote: "profit doubled", source: "report" };

const caseOf = (call: Parameters<typeof chatBody>[0]) =>
  chatBody(call).messages.filter((message) => message.role === "user")[0]?.content ?? "";

const replies: Record<string, ScriptedAnswer> = {
  "case a": claimsContent(founded, invented),
  "case b": "no JSON here",
};

async function runEval(body: Record<string, unknown>) {
  const { gateway, service } = await startWithGateway();
  gateway.script((call) => replies[caseOf(call)] ?? errorReply(500, "unexpected call"));
  return service.post("/v1/verified/eval", {
    model: "gpt-test",
    cases: [
      { id: "first", messages: [{ role: "user", content: "case a" }], sources: [report] },
      { id: "second", messages: [{ role: "user", content: "case b" }], sources: [report] },
      { messages: [{ role: "user", content: "case a" }], sources: [report] },
    ],
    ...body,
  });
}

describe("POST /v1/verified/eval: case ids and details", () => {
  it("echoes case ids and keeps the spec's shape without details", async () => {
    const response = await runEval({});
    expect(response.status).toBe(200);
    expect(response.body.cases).toEqual([
      { id: "first", coverage: 0.5, citations: 1, unsupported: 1 },
      { id: "second", error: expect.objectContaining({ type: "extraction_failed" }) },
      { coverage: 0.5, citations: 1, unsupported: 1 },
    ]);
  });

  it("adds each scored case's create-style result with details: true", async () => {
    const response = await runEval({ details: true });
    expect(response.status).toBe(200);
    const result = {
      text: "Northwind was founded in 2016 in Lyon [report].",
      citations: [{ ...founded, range: rangeOf(report, founded.quote) }],
      unsupported: [
        { claim: invented.claim, reason: "quote_not_found", quote: invented.quote, source: invented.source },
      ],
      coverage: 0.5,
      abstained: false,
      grounded: true,
      usage: scriptedUsage(1),
    };
    expect(response.body.cases).toEqual([
      { id: "first", coverage: 0.5, citations: 1, unsupported: 1, result },
      { id: "second", error: expect.objectContaining({ type: "extraction_failed" }) },
      { coverage: 0.5, citations: 1, unsupported: 1, result },
    ]);
    // The aggregate is the same with or without details.
    expect(response.body.aggregate).toEqual({ coverage_mean: 0.5, unsupported_rate: 0.5, n: 3, errored: 1 });
  });

  it.each([
    { name: "an empty id", id: "", param: "cases[0].id" },
    { name: "an id longer than 256 characters", id: "x".repeat(257), param: "cases[0].id" },
    { name: "an id that is an object", id: { name: "a" }, param: "cases[0].id" },
  ])("rejects $name with invalid_request", async ({ id, param }) => {
    const { service } = await startWithGateway();
    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      cases: [{ id, messages: [{ role: "user", content: "q" }], sources: [report] }],
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", param });
  });

  it("rejects a non-boolean details", async () => {
    const { service } = await startWithGateway();
    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      details: "yes",
      cases: [{ messages: [{ role: "user", content: "q" }], sources: [report] }],
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", param: "details" });
  });
});
