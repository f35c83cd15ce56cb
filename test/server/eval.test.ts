import { describe, expect, it } from "vitest";
import { delayed, errorReply, hangReply, type ScriptedAnswer } from "../support/scripted-gateway.js";
import {
  chatBody,
  claimFrom,
  claimsContent,
  type ModelClaim,
  report,
  startWithGateway,
  startWithoutGateway,
  table,
} from "./harness.js";

// Eval over HTTP: per-case scores, the aggregate, failed cases, batch failures and bounded concurrency.

const founded = claimFrom(report, "Northwind was founded in 2016 in Lyon.");
const revenue = claimFrom(report, "Revenue for 2024 was $18.4 million");
const staff = claimFrom(report, "The company employs 240 people.");
const invented: ModelClaim = { claim: "Profit doubled.", quote: "profit doubled", source: "report" };

const ask = (content: string) => [{ role: "user", content }];
const testCase = (content: string, sources = [report]) => ({ messages: ask(content), sources });

/** The first user message of a call, the case's question: which case the call belongs to. */
const caseOf = (call: Parameters<typeof chatBody>[0]) => {
  const messages = chatBody(call).messages.filter((message) => message.role === "user");
  return messages[0]?.content ?? "";
};

describe("POST /v1/verified/eval: aggregation", () => {
  it("scores each case in request order and leaves failed cases out of the means", async () => {
    const { gateway, service } = await startWithGateway();
    const replies: Record<string, ScriptedAnswer> = {
      "case a": claimsContent(founded, revenue), // 2 of 2
      "case b": claimsContent(staff, invented, invented, invented), // 1 of 4
      "case c": "no JSON here", // unusable, and again after the re-ask: an errored case
      "case d": claimsContent(invented), // 0 of 1: ungroundable is a score, not an error
    };
    gateway.script((call) => replies[caseOf(call)] ?? errorReply(500, "unexpected call"));

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      cases: [
        testCase("case a"),
        testCase("case b"),
        testCase("case c"),
        testCase("case d"),
        testCase("case e", []), // no sources: an errored case, with no model call
      ],
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      aggregate: {
        // (1 + 0.25 + 0) / 3 scored cases
        coverage_mean: 1.25 / 3,
        // (0 + 3 + 1) unsupported / (2 + 4 + 1) claims in scored cases
        unsupported_rate: 4 / 7,
        n: 5,
        errored: 2,
      },
      cases: [
        { coverage: 1, citations: 2, unsupported: 0 },
        { coverage: 0.25, citations: 1, unsupported: 3 },
        {
          error: {
            type: "extraction_failed",
            code: "extraction_failed",
            message:
              "The model's output was unusable after one re-ask: the model's output is not valid JSON. Check that the model follows the output contract in docs/api.md.",
          },
        },
        { coverage: 0, citations: 0, unsupported: 1 },
        {
          error: {
            type: "no_sources",
            code: "no_sources",
            message: '"sources" is empty; supply at least one source.',
          },
        },
      ],
      // Every model call is counted, the failed case's two included.
      usage: { total_tokens: 15 * 5, model_calls: 5 },
    });
    expect(gateway.calls).toHaveLength(5);
  });

  it("reports 0 for the means when every case failed", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => "not JSON");

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      cases: [testCase("one"), testCase("two")],
    });

    expect(response.status).toBe(200);
    expect(response.body.aggregate).toEqual({ coverage_mean: 0, unsupported_rate: 0, n: 2, errored: 2 });
  });

  it("keeps a case's error message relative to the case, since a paging client's index would differ", async () => {
    const { service } = await startWithGateway({ config: { sourcesBudget: 10 } });

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      cases: [testCase("one", [{ id: "a", text: "short" }]), testCase("two")],
    });

    expect(response.status).toBe(200);
    expect(response.body.cases[1]).toEqual({
      error: {
        type: "sources_too_large",
        code: "sources_too_large",
        message: `"sources" totals ${report.text.length} characters; the limit is 10. Send fewer or shorter sources.`,
      },
    });
  });

  it.each([
    {
      name: "a rate limit",
      reply: errorReply(429, "slow down", { headers: { "retry-after": "1" } }),
      type: "rate_limited",
    },
    { name: "a gateway 400", reply: errorReply(400, "bad request"), type: "gateway_error" },
  ])("$name on one case is that case's error, not the batch's", async ({ reply, type }) => {
    const { gateway, service } = await startWithGateway();
    gateway.script((call) => (caseOf(call) === "bad" ? reply : claimsContent(founded)));

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      cases: [testCase("good"), testCase("bad")],
    });

    expect(response.status).toBe(200);
    expect(response.body.cases[0]).toEqual({ coverage: 1, citations: 1, unsupported: 0 });
    expect(response.body.cases[1].error.type).toBe(type);
    expect(response.body.aggregate).toEqual({ coverage_mean: 1, unsupported_rate: 0, n: 2, errored: 1 });
  });
});

describe("POST /v1/verified/eval: options apply to every case", () => {
  const loose: ModelClaim = {
    claim: "Founded in Lyon.",
    quote: "northwind was founded in 2016 in lyon",
    source: "report",
  };

  it.each([
    { name: "mode strict (default)", options: {}, coverage: 0.5 },
    { name: "mode lenient", options: { mode: "lenient" }, coverage: 1 },
  ])("$name", async ({ options, coverage }) => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => claimsContent(staff, loose));

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      ...options,
      cases: [testCase("one"), testCase("two")],
    });

    expect(response.body.cases).toEqual([
      { coverage, citations: coverage * 2, unsupported: 2 - coverage * 2 },
      { coverage, citations: coverage * 2, unsupported: 2 - coverage * 2 },
    ]);
  });

  it('check_numbers "row"', async () => {
    const { gateway, service } = await startWithGateway();
    const quote = "| Q3 | 1,250 | 230 |";
    gateway.script(() =>
      claimsContent(
        claimFrom(table, quote, "Q3 revenue was 1,250."),
        claimFrom(table, quote, "Q3 revenue was 230."),
      ),
    );

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      check_numbers: "row",
      cases: [testCase("one", [table])],
    });

    expect(response.body.cases).toEqual([{ coverage: 0.5, citations: 1, unsupported: 1 }]);
  });

  it("retry, with the best attempt scored", async () => {
    const { gateway, service } = await startWithGateway();
    const seen = new Map<string, number>();
    gateway.script((call) => {
      const name = caseOf(call);
      const count = (seen.get(name) ?? 0) + 1;
      seen.set(name, count);
      return count === 1 ? claimsContent(founded, invented) : claimsContent(founded, staff);
    });

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      retry: 1,
      cases: [testCase("one"), testCase("two")],
    });

    expect(response.body).toEqual({
      aggregate: { coverage_mean: 1, unsupported_rate: 0, n: 2, errored: 0 },
      cases: [
        { coverage: 1, citations: 2, unsupported: 0 },
        { coverage: 1, citations: 2, unsupported: 0 },
      ],
      usage: { total_tokens: 60, model_calls: 4 },
    });
  });
});

describe("POST /v1/verified/eval: failures of the whole batch", () => {
  it.each([
    {
      name: "gateway 401",
      reply: errorReply(401, "Invalid API key", { code: "invalid_api_key" }),
      status: 401,
      type: "invalid_key",
      message: "The gateway refused the API key (HTTP 401 [invalid_api_key]: Invalid API key).",
    },
    {
      name: "gateway 402",
      reply: errorReply(402, "Out of credits"),
      status: 402,
      type: "insufficient_quota",
      message: "The gateway reports exhausted credits or quota (HTTP 402: Out of credits).",
    },
    {
      name: "gateway 404 unknown model",
      reply: errorReply(404, "model not found", { code: "model_not_found" }),
      status: 404,
      type: "model_not_found",
      message:
        'The gateway does not know model "gpt-test" (HTTP 404 [model_not_found]: model not found); check the model id, and that the gateway URL includes any /v1 prefix the gateway needs.',
    },
  ])(
    "$name on one case fails the request and aborts the calls in flight",
    async ({ reply, status, type, message }) => {
      // The hung calls would outlast the test (a 10-minute gateway timeout): only the abort can end them.
      const { gateway, service } = await startWithGateway({
        config: { evalConcurrency: 3 },
        gatewayTimeoutMs: 600_000,
      });
      gateway.script((call) => (caseOf(call) === "fails" ? delayed(100, reply) : hangReply()));

      const response = await service.post("/v1/verified/eval", {
        model: "gpt-test",
        cases: [
          testCase("hangs 1"),
          testCase("fails"),
          testCase("hangs 2"),
          testCase("queued 1"),
          testCase("queued 2"),
        ],
      });

      expect(response.status).toBe(status);
      expect(response.body).toEqual({ error: { type, code: type, message, request_id: expect.any(String) } });
      const hung = gateway.calls.filter((call) => caseOf(call) !== "fails");
      await Promise.all(hung.map((call) => gateway.waitForClientClose(call.index)));
      // The queued cases never reached the gateway.
      expect(gateway.calls.map(caseOf).sort()).toEqual(["fails", "hangs 1", "hangs 2"]);
    },
  );

  it("model_not_found with no gateway configured fails the whole batch", async () => {
    const service = await startWithoutGateway();

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      cases: [testCase("one"), testCase("two")],
    });

    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({
      type: "model_not_found",
      code: "model_not_found",
      param: "model",
    });
  });
});

describe("POST /v1/verified/eval: bounded concurrency", () => {
  it("keeps at most config.evalConcurrency gateway calls in flight, and uses them all", async () => {
    const { gateway, service } = await startWithGateway({ config: { evalConcurrency: 3 } });
    gateway.script(() => delayed(80, claimsContent(founded)));

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      cases: Array.from({ length: 10 }, (_, index) => testCase(`case ${index}`)),
    });

    expect(response.status).toBe(200);
    expect(response.body.aggregate).toEqual({ coverage_mean: 1, unsupported_rate: 0, n: 10, errored: 0 });
    expect(gateway.calls).toHaveLength(10);
    expect(gateway.maxInFlight()).toBe(3);
  });

  it("counts re-asks and retries against the same bound", async () => {
    const { gateway, service } = await startWithGateway({ config: { evalConcurrency: 2 } });
    const seen = new Map<string, number>();
    gateway.script((call) => {
      const name = caseOf(call);
      const count = (seen.get(name) ?? 0) + 1;
      seen.set(name, count);
      // A re-ask, then an unsupported claim (so a retry), then a grounded one.
      const content =
        count === 1 ? "not JSON" : count === 2 ? claimsContent(invented) : claimsContent(founded);
      return delayed(40, content);
    });

    const response = await service.post("/v1/verified/eval", {
      model: "gpt-test",
      retry: 1,
      cases: Array.from({ length: 4 }, (_, index) => testCase(`case ${index}`)),
    });

    expect(response.status).toBe(200);
    expect(response.body.usage.model_calls).toBe(12);
    expect(gateway.maxInFlight()).toBe(2);
  });
});
