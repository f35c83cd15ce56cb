import { describe, expect, it } from "vitest";
import { errorReply, type ScriptedAnswer } from "../support/scripted-gateway.js";
import {
  chatBody,
  claimFrom,
  claimsContent,
  type ModelClaim,
  report,
  startWithGateway,
  table,
} from "./harness.js";

// Eval with `expected`: a case is correct when an expected answer occurs in a grounded claim; the aggregate's
// correct_rate is over the cases that carry `expected`.

const revenue = claimFrom(report, "Revenue for 2024 was $18.4 million, up 22% over 2023.");
const q3 = claimFrom(table, "| Q3 | 1,250 | 230 |", "Q3 revenue was 1,250.");
const invented: ModelClaim = {
  claim: "Revenue was 99 million.",
  quote: "revenue was 99 million",
  source: "report",
};

const caseOf = (call: Parameters<typeof chatBody>[0]) =>
  chatBody(call).messages.filter((message) => message.role === "user")[0]?.content ?? "";

const replies: Record<string, ScriptedAnswer> = {
  revenue: claimsContent(revenue),
  q3: claimsContent(q3),
  invented: claimsContent(invented),
  broken: "no JSON here",
};

const ask = (content: string) => [{ role: "user", content }];

async function runEval(cases: unknown[], body: Record<string, unknown> = {}) {
  const { gateway, service } = await startWithGateway();
  gateway.script((call) => replies[caseOf(call)] ?? errorReply(500, "unexpected call"));
  return service.post("/v1/verified/eval", { model: "gpt-test", cases, ...body });
}

describe("POST /v1/verified/eval: expected answers", () => {
  it("marks each case with expected correct or not, says which answer matched and where", async () => {
    const response = await runEval([
      { id: "a", messages: ask("revenue"), sources: [report], expected: "$18.4 million" },
      { id: "b", messages: ask("q3"), sources: [table], expected: ["1100", "1250"] },
      { id: "c", messages: ask("invented"), sources: [report], expected: "99 million" },
      { id: "d", messages: ask("revenue"), sources: [report] },
    ]);
    expect(response.status).toBe(200);
    expect(response.body.cases).toEqual([
      {
        id: "a",
        coverage: 1,
        citations: 1,
        unsupported: 0,
        correct: true,
        match: { expected: "$18.4 million", citation: 0, range: [22, 34] },
      },
      {
        id: "b",
        coverage: 1,
        citations: 1,
        unsupported: 0,
        correct: true,
        match: { expected: "1250", citation: 0, range: [15, 20] },
      },
      // Grounding comes first: an expected answer in a dropped claim does not count.
      { id: "c", coverage: 0, citations: 0, unsupported: 1, correct: false },
      { id: "d", coverage: 1, citations: 1, unsupported: 0 },
    ]);
    expect(response.body.aggregate.correct_rate).toBeCloseTo(2 / 3, 12);
  });

  it("leaves correct_rate out when no case carries expected, and errored cases out of it", async () => {
    const without = await runEval([{ messages: ask("revenue"), sources: [report] }]);
    expect(without.body.aggregate).toEqual({ coverage_mean: 1, unsupported_rate: 0, n: 1, errored: 0 });
    const errored = await runEval([
      { messages: ask("broken"), sources: [report], expected: "x" },
      { messages: ask("revenue"), sources: [report], expected: "22%" },
    ]);
    expect(errored.body.aggregate).toMatchObject({ errored: 1, correct_rate: 1 });
  });

  it.each([
    { name: "an empty string", expected: "", param: "cases[0].expected" },
    { name: "an empty list", expected: [], param: "cases[0].expected" },
    { name: "a number", expected: 12, param: "cases[0].expected" },
    {
      name: "more than 20 answers",
      expected: Array.from({ length: 21 }, (_, at) => `a${at}`),
      param: "cases[0].expected",
    },
    { name: "an answer over 1,000 characters", expected: "a".repeat(1_001), param: "cases[0].expected" },
    {
      name: "a listed answer over 1,000 characters",
      expected: ["ok", "b".repeat(3_000_000)],
      param: "cases[0].expected",
    },
  ])("rejects $name as expected with invalid_request", async ({ expected, param }) => {
    const response = await runEval([{ messages: ask("revenue"), sources: [report], expected }]);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", param });
  });

  it("refuses an expected answer over 1,000 characters on a streamed eval too, before any gateway call", async () => {
    const { gateway, service } = await startWithGateway();
    const cases = [{ messages: ask("revenue"), sources: [report], expected: ["ok", "b".repeat(1_001)] }];
    const response = await service.post("/v1/verified/eval", { model: "gpt-test", cases, stream: true });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", param: "cases[0].expected" });
    expect(gateway.calls).toHaveLength(0);
  });

  it("accepts an expected answer of exactly 1,000 characters", async () => {
    const response = await runEval([
      { messages: ask("revenue"), sources: [report], expected: "9".repeat(1_000) },
    ]);
    expect(response.status).toBe(200);
    expect(response.body.cases[0]).toMatchObject({ correct: false });
  });
});
