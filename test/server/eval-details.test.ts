import { describe, expect, it } from "vitest";
import { MAX_EVAL_CASES, MAX_EVAL_DETAILS_CHARS } from "../../src/limits.js";
import { parseEventStream } from "../support/event-stream.js";
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

describe("POST /v1/verified/eval: the details budget", () => {
  // 200 cases share the budget equally. A result holds its claim twice (in `text` and in its citation): a
  // "fitting" case's result is a little shorter than its share, a "large" one's twice as long (in issue 24,
  // 200 answers of 2 MB each kept 1.28 GB); the other cases answer a short claim.
  const share = Math.floor(MAX_EVAL_DETAILS_CHARS / MAX_EVAL_CASES);
  const words = (chars: number) => "Northwind grew. ".repeat(Math.ceil(chars / 16)).slice(0, chars);
  const quote = "Northwind was founded in 2016 in Lyon.";
  const short = claimFrom(report, quote);
  const claims: Record<string, ModelClaim> = {
    short,
    fitting: claimFrom(report, quote, words(share / 2 - 1_000)),
    large: claimFrom(report, quote, words(share)),
  };
  const kindOf = (index: number) => (index % 50 === 1 ? "large" : index % 50 === 2 ? "fitting" : "short");
  const cases = Array.from({ length: MAX_EVAL_CASES }, (_, index) => ({
    id: `case-${index}`,
    messages: [{ role: "user", content: kindOf(index) }],
    sources: [report],
  }));

  async function evalLarge(body: Record<string, unknown>) {
    const { gateway, service } = await startWithGateway();
    gateway.script((call) => claimsContent(claims[caseOf(call)] ?? short));
    return service.post("/v1/verified/eval", { model: "gpt-test", cases, details: true, ...body });
  }

  type WireCase = {
    id: string;
    citations: number;
    result?: { citations: { claim: string }[] };
    result_omitted?: string;
  };

  function expectWithinBudget(answered: WireCase[]) {
    expect(answered).toHaveLength(MAX_EVAL_CASES);
    for (const [index, entry] of answered.entries()) {
      // Scores are kept whatever details keep.
      expect(entry).toMatchObject({ id: `case-${index}`, citations: 1 });
      if (kindOf(index) === "large") {
        expect(entry.result_omitted).toBe("details_budget");
        expect(entry).not.toHaveProperty("result");
      } else {
        expect(entry).not.toHaveProperty("result_omitted");
        expect(entry.result?.citations[0]?.claim).toBe(claims[kindOf(index)]?.claim);
        expect(JSON.stringify(entry.result).length).toBeLessThanOrEqual(share);
      }
    }
    const kept = answered.reduce((sum, entry) => sum + JSON.stringify(entry.result ?? "").length, 0);
    expect(kept).toBeLessThanOrEqual(MAX_EVAL_DETAILS_CHARS);
  }

  it("keeps each result within the case's share and marks the cases over it", async () => {
    const response = await evalLarge({});
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expectWithinBudget(response.body.cases);
    expect(response.body.aggregate).toEqual({ coverage_mean: 1, unsupported_rate: 0, n: 200, errored: 0 });
  });

  it("streams each case's result or marker in its case event, as in done", async () => {
    const response = await evalLarge({ stream: true });
    expect(response.status).toBe(200);
    const { events } = parseEventStream(response.body as string);
    const done = events.at(-1);
    expect(done?.event).toBe("done");
    expectWithinBudget(done?.data.cases);
    const caseEvents = events.filter((event) => event.event === "case");
    expect(caseEvents).toHaveLength(MAX_EVAL_CASES);
    for (const { data } of caseEvents) {
      const { index, ...entry } = data;
      expect(entry).toEqual(done?.data.cases[index]);
    }
  });
});
