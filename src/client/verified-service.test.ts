// The client against the real service (the Fastify app, over HTTP on 127.0.0.1), with a scripted in-process
// gateway whose behaviour is chosen by the model id. This is the seam that proves the wire contract; the
// other client tests pin the client's own behaviour against a scripted HTTP server.
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "../errors/service-error.js";
import type { GenerateRequest, GenerateResult, ModelBackend } from "../models/types.js";
import { createApp } from "../server/app.js";
import { defaultServerConfig } from "../server/config.js";
import {
  AuthenticationError,
  ExtractionFailedError,
  GatewayError,
  GatewayTimeoutError,
  InsufficientQuotaError,
  InvalidRequestError,
  ModelNotFoundError,
  NoSourcesError,
  PayloadTooLargeError,
  RateLimitError,
  SourcesTooLargeError,
  TimeoutError,
  TooManyCasesError,
  UngroundedError,
  type VerifiedError,
} from "./errors.js";
import type { EvalAllCase, EvalCaseResult } from "./types.js";
import { Verified } from "./verified.js";

const API_KEY = "service-test-key";
const usage = { promptTokens: 7, completionTokens: 3, totalTokens: 10 };
const reply = (content: unknown): GenerateResult => ({
  content: typeof content === "string" ? content : JSON.stringify(content),
  usage,
});

const gatewayCalls: GenerateRequest[] = [];

/**
 * `scripted`: claims every source's first sentence, plus one invented claim; a user message containing
 * "garble" gets unparseable output. `liar`: only invented claims. Other ids fail as their names say.
 */
const gateway: ModelBackend = {
  async generate(request) {
    gatewayCalls.push(request);
    const { task } = request;
    switch (request.model) {
      case "quota":
        throw new ServiceError("insufficient_quota");
      case "rate-limited":
        throw new ServiceError("rate_limited", undefined, { retryAfterSeconds: 2 });
      case "broken":
        throw new ServiceError("gateway_error");
      case "stalled":
        throw new ServiceError("gateway_timeout");
      case "sleepy":
        // Never answers: only the caller's abort (the client's timeout closing the request) ends it.
        await new Promise((_resolve, reject) =>
          request.signal?.addEventListener("abort", () => reject(request.signal?.reason)),
        );
        break;
      case "scripted":
      case "liar":
        break;
      default:
        throw new ServiceError("model_not_found", `Model "${request.model}" is not known.`, {
          param: "model",
        });
    }
    if (task.kind === "answer") return reply("I answer only from sources.");
    if (task.kind === "prose") return reply(partlySupported);
    if (task.kind === "fields") {
      const fields = Object.fromEntries(
        Object.entries(task.schema).map(([name, description]) => {
          const source = task.sources.find((candidate) => candidate.text.includes(description));
          return [name, source ? { value: description, source: source.id } : { value: null, source: null }];
        }),
      );
      return reply({ fields });
    }
    const question = task.messages.at(-1)?.content ?? "";
    if (question.includes("garble")) return reply("no JSON here");
    const invented = { claim: "The moon is made of cheese", quote: "made of cheese", source: "facts" };
    if (request.model === "liar") return reply({ claims: [invented] });
    const claims = task.sources.map((source) => {
      const quote = `${source.text.split(". ")[0]}`;
      return { claim: quote, quote, source: source.id };
    });
    return reply({ claims: [...claims, invented] });
  },
};

let app: FastifyInstance;
let baseURL: string;

beforeAll(async () => {
  app = await createApp({
    gateway,
    config: { ...defaultServerConfig, apiKeys: [API_KEY], evalConcurrency: 4 },
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  baseURL = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  app.server.closeAllConnections();
  await app.close();
});

const client = (options: { apiKey?: string; timeout?: number; maxRetries?: number; waits?: number[] } = {}) =>
  new Verified({
    apiKey: options.apiKey ?? API_KEY,
    baseURL,
    maxRetries: options.maxRetries ?? 0,
    timeout: options.timeout ?? 10_000,
    sleep: async (ms) => {
      options.waits?.push(ms);
    },
  });

const sources = [
  { id: "facts", text: "Paris is the capital of France. It has about two million inhabitants." },
  { id: "report_q3", text: "Revenue in Q3 was 12.5 million. Profit was 2 million." },
];
const messages = [{ role: "user" as const, content: "Tell me the facts." }];
/** What the scripted model answers in prose: one sentence partly supported, one supported. */
const partlySupported =
  "Paris is the capital of France and of fashion [facts]. Revenue in Q3 was 12.5 million [report_q3].";

describe("every method against the real service", () => {
  it("create: camelCase result whose ranges slice to the quotes", async () => {
    const result = await client().create({
      model: "scripted",
      messages,
      sources,
      minCoverage: 0.9,
      maxTokens: 64,
    });
    expect(result).toEqual({
      id: expect.stringMatching(/^vfd_/),
      model: "scripted",
      text: expect.stringMatching(
        /^Paris is the capital of France \[facts\]\W+Revenue in Q3 was 12\.5 million \[report_q3\]/,
      ),
      citations: [
        {
          claim: "Paris is the capital of France",
          quote: "Paris is the capital of France",
          source: "facts",
          range: [0, 30],
        },
        {
          claim: "Revenue in Q3 was 12.5 million",
          quote: "Revenue in Q3 was 12.5 million",
          source: "report_q3",
          range: [0, 30],
        },
      ],
      unsupported: [
        {
          claim: "The moon is made of cheese",
          reason: "quote_not_found",
          quote: "made of cheese",
          source: "facts",
        },
      ],
      coverage: 2 / 3,
      abstained: true,
      grounded: true,
      usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10, modelCalls: 1 },
    });
    expect(gatewayCalls.at(-1)?.maxTokens).toBe(64);
    for (const citation of result.citations) {
      const text = sources.find((source) => source.id === citation.source)?.text ?? "";
      expect(text.slice(...citation.range)).toBe(citation.quote);
    }
  });

  it("extract: the schema's own keys come back untouched", async () => {
    const schema = { capitalCity: "Paris", q3_revenue: "12.5 million", missingField: "Berlin" };
    const result = await client().extract({ model: "scripted", sources, schema });
    expect(result).toEqual({
      id: expect.stringMatching(/^ext_/),
      model: "scripted",
      fields: {
        capitalCity: { value: "Paris", source: "facts", range: [0, 5], grounded: true },
        q3_revenue: { value: "12.5 million", source: "report_q3", range: [18, 30], grounded: true },
        missingField: { value: null, grounded: false, reason: "not_found" },
      },
      coverage: 2 / 3,
      usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10, modelCalls: 1 },
    });
  });

  it("check: verdicts with no model call", async () => {
    const result = await client().check({
      sources,
      claims: [
        {
          claim: "Q3 revenue was 12.5 million",
          quote: "Revenue in Q3 was 12.5 million",
          source: "report_q3",
        },
        { claim: "Q3 profit was 3 million", quote: "Profit was 2 million", source: "report_q3" },
        { quote: "Paris is the capital", source: "atlas" },
      ],
      checkNumbers: true,
    });
    expect(result).toEqual({
      text: expect.stringMatching(/^Q3 revenue was 12\.5 million \[report_q3\]/),
      citations: [
        {
          claim: "Q3 revenue was 12.5 million",
          quote: "Revenue in Q3 was 12.5 million",
          source: "report_q3",
          range: [0, 30],
        },
      ],
      unsupported: [
        {
          claim: "Q3 profit was 3 million",
          reason: "number_not_found",
          quote: "Profit was 2 million",
          source: "report_q3",
        },
        {
          claim: "Paris is the capital",
          reason: "unknown_source",
          quote: "Paris is the capital",
          source: "atlas",
        },
      ],
      coverage: 1 / 3,
      usage: { modelCalls: 0, totalTokens: 0 },
    });
  });

  it("check with an answer: a partly supported claim's words in camelCase, kept or dropped", async () => {
    const answer = "Paris is the capital of France and of fashion [1].";
    const kept = await client().check({ sources, answer });
    expect(kept.partial).toEqual([
      { claim: "Paris is the capital of France and of fashion.", term: "fashion", answerRange: [38, 45] },
    ]);
    const dropped = await client().check({ sources, answer, partial: "drop" });
    expect(dropped.partial).toEqual([]);
    expect(dropped.unsupported.map((entry) => entry.reason)).toEqual(["partial_support"]);
  });

  it("create and eval in text format: the partial policy, and partly supported words in camelCase", async () => {
    const claim = "Paris is the capital of France and of fashion.";
    const fashion = { claim, term: "fashion", answerRange: [38, 45] };
    const base = { model: "scripted", messages, sources, answerFormat: "text" as const };
    const kept = await client().create(base);
    expect(kept.partial).toEqual([fashion]);
    expect(partlySupported.slice(38, 45)).toBe("fashion");
    const dropped = await client().create({ ...base, partial: "drop" });
    expect(dropped).toMatchObject({ text: "Revenue in Q3 was 12.5 million [report_q3].", partial: [] });
    expect(dropped.unsupported.map((entry) => entry.reason)).toEqual(["partial_support"]);
    const streamed = client().stream({ ...base, partial: "drop" });
    for await (const _event of streamed) {
      // Drained: the result is what matters.
    }
    expect((await streamed.finalResult()).unsupported.map((entry) => entry.reason)).toEqual([
      "partial_support",
    ]);

    const cases = [{ messages, sources }];
    const evalKept = await client().eval({ model: "scripted", cases, answerFormat: "text", details: true });
    const [keptCase] = evalKept.cases as EvalCaseResult[];
    expect(keptCase && "result" in keptCase ? keptCase.result?.partial : undefined).toEqual([fashion]);
    const evalDropped = await client().evalAll({
      model: "scripted",
      cases,
      answerFormat: "text",
      partial: "drop",
      details: true,
    });
    const [droppedCase] = evalDropped.cases as EvalCaseResult[];
    const result = droppedCase && "result" in droppedCase ? droppedCase.result : undefined;
    expect(result?.partial).toEqual([]);
    expect(result?.unsupported.map((entry) => entry.reason)).toEqual(["partial_support"]);
  });

  it("create in text format: the model's answer as written, which every answerRange counts into", async () => {
    const base = {
      model: "scripted",
      messages,
      sources,
      answerFormat: "text" as const,
      partial: "drop" as const,
    };
    const result = await client().create(base);
    expect(result.text).toBe("Revenue in Q3 was 12.5 million [report_q3].");
    expect(result.answer).toBe(partlySupported);
    for (const item of [...result.citations, ...result.unsupported])
      expect(partlySupported.slice(...(item.answerRange ?? [0, 0]))).toContain(item.claim.slice(0, -1));
    const cases = [{ messages, sources }];
    const evaluated = await client().eval({ model: "scripted", cases, answerFormat: "text", details: true });
    const [scored] = evaluated.cases as EvalCaseResult[];
    expect(scored && "result" in scored ? scored.result?.answer : undefined).toBe(partlySupported);
  });

  it("check with an answer: an equivalent number form, a clause per marker and support pooled over a page", async () => {
    const page = {
      id: "facts",
      text: "Paris is the capital of France. The city hosts many museums. It has about two million inhabitants. Its river is the Seine. Its metro opened in 1900.",
    };
    const answer =
      "Revenue in Q3 was 12.5M [report_q3]. Paris is the capital of France [facts], and profit was 2 million [report_q3]. The city hosts many museums, and its metro opened in 1900 [facts].";
    const result = await client().check({ sources: [page, sources[1] as (typeof sources)[1]], answer });
    const pooled = "The city hosts many museums, and its metro opened in 1900.";
    expect(
      result.citations.map(({ claim, quote, source, answerRange }) => [claim, quote, source, answerRange]),
    ).toEqual([
      ["Revenue in Q3 was 12.5M.", "Revenue in Q3 was 12.5 million.", "report_q3", [0, 36]],
      ["Paris is the capital of France", "Paris is the capital of France.", "facts", [37, 77]],
      ["and profit was 2 million.", "Profit was 2 million.", "report_q3", [77, 114]],
      [pooled, "The city hosts many museums.", "facts", [115, 181]],
      [pooled, "Its metro opened in 1900.", "facts", [115, 181]],
    ]);
    for (const citation of result.citations) {
      const text = citation.source === "facts" ? page.text : (sources[1]?.text ?? "");
      expect(text.slice(...citation.range)).toBe(citation.quote);
    }
    expect(result).toMatchObject({ unsupported: [], partial: [], coverage: 1 });
  });

  it("check with an answer: camelCase answer ranges, supports and misses", async () => {
    const answer =
      "Paris is the capital of France [1]. Revenue in Q3 was 12.5 million [facts]. Profit was 2 million in Zorgland [2].";
    const result = await client().check({ sources, answer, explain: true });
    expect(result).toEqual({
      text: "Paris is the capital of France [1].",
      citations: [
        {
          claim: "Paris is the capital of France.",
          quote: "Paris is the capital of France.",
          source: "facts",
          range: [0, 31],
          support: 1,
          answerRange: [0, 35],
        },
      ],
      unsupported: [
        {
          claim: "Revenue in Q3 was 12.5 million.",
          reason: "wrong_source",
          answerRange: [36, 75],
          source: "report_q3",
          quote: "Revenue in Q3 was 12.5 million.",
          range: [0, 31],
          support: 1,
          detail: { foundIn: ["report_q3"] },
        },
        {
          claim: "Profit was 2 million in Zorgland.",
          reason: "entity_not_found",
          answerRange: [76, 113],
          detail: { entity: "Zorgland" },
        },
      ],
      partial: [],
      coverage: 1 / 3,
      usage: { modelCalls: 0, totalTokens: 0 },
    });
    for (const item of [...result.citations, ...result.unsupported]) {
      const claimRange = item.answerRange ?? [0, 0];
      expect(answer.slice(...claimRange)).toContain(item.claim.slice(0, -1));
    }
  });

  it("check with an answer: a strict quotation off only in case says so in camelCase; lenient keeps it", async () => {
    const answer = 'The source says "paris is the capital of France" [facts].';
    const strict = await client().check({ sources, answer, explain: true });
    expect(strict.unsupported).toEqual([
      expect.objectContaining({
        reason: "quote_not_found",
        detail: {
          quotation: "paris is the capital of France",
          differsOnlyIn: "first_letter_case",
          sourceText: "Paris is the capital of France",
        },
      }),
    ]);
    const lenient = await client().check({ sources, answer, explain: true, mode: "lenient" });
    expect(lenient).toMatchObject({ unsupported: [], coverage: 1 });
  });

  it("eval in text format with explain: each case's dropped sentences say why, in camelCase", async () => {
    const cases = [{ messages, sources }];
    const params = { model: "scripted", cases, answerFormat: "text" as const, partial: "drop" as const };
    const explained = await client().eval({ ...params, explain: true, details: true });
    const paged = await client().evalAll({ ...params, explain: true, details: true });
    for (const evaluated of [explained, paged]) {
      const [scored] = evaluated.cases as EvalCaseResult[];
      const result = scored && "result" in scored ? scored.result : undefined;
      expect(result?.unsupported.map(({ reason, detail }) => [reason, detail])).toEqual([
        ["partial_support", { words: ["fashion"] }],
      ]);
    }
  });

  it("check with an answer and messages: the user's words are context, not new facts", async () => {
    const answer = "Paris, unlike Zorgland, is the capital of France [1].";
    const alone = await client().check({ sources, answer });
    expect(alone.unsupported).toEqual([
      expect.objectContaining({ reason: "entity_not_found", answerRange: [0, 53] }),
    ]);
    const asked = await client().check({
      sources,
      answer,
      messages: [{ role: "user", content: "What about Zorgland?" }],
    });
    expect(asked).toMatchObject({ text: answer, unsupported: [], coverage: 1 });
    expect(asked.citations).toEqual([
      expect.objectContaining({ source: "facts", range: [0, 31], answerRange: [0, 53] }),
    ]);
  });

  it("check: both claims and answer is an InvalidRequestError naming the param", async () => {
    const error = await client()
      .check({ sources, answer: "Paris is the capital of France [1].", claims: [] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, type: "invalid_request", param: "answer" });
  });

  it("eval: the service's own aggregate equals the client's merge of the same cases", async () => {
    const cases = [
      { messages, sources },
      { messages: [{ role: "user" as const, content: "garble" }], sources },
      { messages, sources: sources.slice(1) },
    ];
    const result = await client().eval({ model: "scripted", cases, checkNumbers: "source" });
    expect(result.cases).toEqual([
      { coverage: 2 / 3, citations: 2, unsupported: 1 },
      { error: { type: "extraction_failed", code: "extraction_failed", message: expect.any(String) } },
      { coverage: 1 / 2, citations: 1, unsupported: 1 },
    ]);
    expect(result.aggregate).toEqual({
      coverageMean: (2 / 3 + 1 / 2) / 2,
      unsupportedRate: 2 / 5,
      n: 3,
      errored: 1,
    });
    // Calls made for the errored case are the service's business; the scored ones make one call each.
    expect(result.usage.modelCalls).toBeGreaterThanOrEqual(2);
  });
});

describe("eval details against the real service", () => {
  it("echoes case ids and returns each case's create-style result in camelCase", async () => {
    const result = await client().eval({
      model: "scripted",
      details: true,
      cases: [
        { id: "paris", messages, sources: sources.slice(0, 1) },
        { messages: [{ role: "user" as const, content: "garble" }], sources, id: "broken" },
      ],
    });
    const quote = "Paris is the capital of France";
    expect(result.cases).toEqual([
      {
        id: "paris",
        coverage: 1 / 2,
        citations: 1,
        unsupported: 1,
        result: {
          text: expect.stringContaining("[facts]"),
          citations: [{ claim: quote, quote, source: "facts", range: [0, quote.length] }],
          unsupported: [
            {
              claim: "The moon is made of cheese",
              reason: "quote_not_found",
              quote: "made of cheese",
              source: "facts",
            },
          ],
          coverage: 1 / 2,
          abstained: false,
          grounded: true,
          usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10, modelCalls: 1 },
        },
      },
      {
        id: "broken",
        error: { type: "extraction_failed", code: "extraction_failed", message: expect.any(String) },
      },
    ]);
  });
});

describe("evalAll against the real service", () => {
  function dataset(size: number): EvalAllCase[] {
    return Array.from({ length: size }, (_, index) => ({
      id: `case-${index}`,
      messages: [{ role: "user", content: index === 321 ? "garble, please" : `question ${index}` }],
      sources: sources.slice(0, 1 + (index % 2)),
    }));
  }

  it("merges 450 cases (pages of 200, 200, 50) exactly", async () => {
    const progress: number[] = [];
    const result = await client().evalAll({
      model: "scripted",
      cases: dataset(450),
      concurrency: 2,
      onProgress: ({ done }) => progress.push(done),
    });
    const scored = result.cases.filter(
      (entry): entry is EvalCaseResult & { error?: undefined } => entry.error === undefined,
    );
    const claims = scored.reduce((total, entry) => total + entry.citations + entry.unsupported, 0);
    expect(result.aggregate).toEqual({
      coverageMean: scored.reduce((total, entry) => total + entry.coverage, 0) / scored.length,
      unsupportedRate: scored.reduce((total, entry) => total + entry.unsupported, 0) / claims,
      n: 450,
      errored: 1,
    });
    expect(result.cases[321]).toMatchObject({ id: "case-321", error: { type: "extraction_failed" } });
    expect(result.cases[4]).toEqual({ id: "case-4", coverage: 1 / 2, citations: 1, unsupported: 1 });
    expect(result.cases[5]).toEqual({ id: "case-5", coverage: 2 / 3, citations: 2, unsupported: 1 });
    expect(result.usage.modelCalls).toBeGreaterThanOrEqual(449);
    expect(result.usage.totalTokens).toBe(result.usage.modelCalls * 10);
    // Streamed pages: progress moves one case at a time.
    expect(progress).toEqual(Array.from({ length: 450 }, (_, index) => index + 1));
  });

  it("stops on a quota failure", async () => {
    await expect(client().evalAll({ model: "quota", cases: dataset(450) })).rejects.toBeInstanceOf(
      InsufficientQuotaError,
    );
  });

  it("stops on a refused key", async () => {
    await expect(
      client({ apiKey: "wrong" }).evalAll({ model: "scripted", cases: dataset(450) }),
    ).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe("each error class from the real service", () => {
  const tooLong = "x".repeat(100_001);
  const cases: [string, () => Promise<unknown>, new (...args: never[]) => VerifiedError, string, number][] = [
    [
      "invalid_request",
      () => client().create({ model: "scripted", messages, sources, ...({ maxToken: 5 } as object) }),
      InvalidRequestError,
      "invalid_request",
      400,
    ],
    [
      "no_sources",
      () => client().create({ model: "scripted", messages, sources: [] }),
      NoSourcesError,
      "no_sources",
      400,
    ],
    [
      "sources_too_large",
      () => client().create({ model: "scripted", messages, sources: [{ id: "big", text: tooLong }] }),
      SourcesTooLargeError,
      "sources_too_large",
      400,
    ],
    [
      "too_many_cases",
      () =>
        client().eval({
          model: "scripted",
          cases: Array.from({ length: 201 }, () => ({ messages, sources })),
        }),
      TooManyCasesError,
      "too_many_cases",
      400,
    ],
    [
      "invalid_key",
      () => client({ apiKey: "wrong" }).create({ model: "scripted", messages, sources }),
      AuthenticationError,
      "invalid_key",
      401,
    ],
    [
      "insufficient_quota",
      () => client().create({ model: "quota", messages, sources }),
      InsufficientQuotaError,
      "insufficient_quota",
      402,
    ],
    [
      "model_not_found",
      () => client().create({ model: "nope", messages, sources }),
      ModelNotFoundError,
      "model_not_found",
      404,
    ],
    [
      "payload_too_large",
      () =>
        client().create({
          model: "scripted",
          messages,
          sources: [{ id: "huge", text: "y".repeat(5 * 1024 * 1024) }],
        }),
      PayloadTooLargeError,
      "payload_too_large",
      413,
    ],
    [
      "ungrounded",
      () => client().create({ model: "liar", messages, sources }),
      UngroundedError,
      "ungrounded",
      422,
    ],
    [
      "rate_limited",
      () => client().create({ model: "rate-limited", messages, sources }),
      RateLimitError,
      "rate_limited",
      429,
    ],
    [
      "extraction_failed",
      () => client().create({ model: "scripted", messages: [{ role: "user", content: "garble" }], sources }),
      ExtractionFailedError,
      "extraction_failed",
      502,
    ],
    [
      "gateway_error",
      () => client().create({ model: "broken", messages, sources }),
      GatewayError,
      "gateway_error",
      502,
    ],
    [
      "gateway_timeout",
      () => client().create({ model: "stalled", messages, sources }),
      GatewayTimeoutError,
      "gateway_timeout",
      504,
    ],
  ];

  it.each(cases)("%s", async (_name, call, ErrorClass, type, status) => {
    const error = await call().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ErrorClass);
    expect({ type: (error as VerifiedError).type, status: (error as VerifiedError).status }).toEqual({
      type,
      status,
    });
  });

  it("names the snake_case field at fault in `param`", async () => {
    const error = await client()
      .create({ model: "scripted", messages, sources, ...({ maxToken: 5 } as object) })
      .catch((caught: unknown) => caught);
    expect((error as VerifiedError).param).toBe("max_token");
  });

  it("422 carries the unsupported claims", async () => {
    const error = await client()
      .create({ model: "liar", messages, sources })
      .catch((caught: unknown) => caught);
    expect((error as UngroundedError).unsupported).toEqual([
      {
        claim: "The moon is made of cheese",
        reason: "quote_not_found",
        quote: "made of cheese",
        source: "facts",
      },
    ]);
  });

  it("429: Retry-After is forwarded, honoured and retried", async () => {
    const waits: number[] = [];
    const before = gatewayCalls.length;
    const error = await client({ maxRetries: 2, waits })
      .create({ model: "rate-limited", messages, sources })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(2);
    expect(waits).toEqual([2000, 2000]);
    expect(gatewayCalls.length - before).toBe(3);
  });

  it("times out a slow call as a status-0 TimeoutError", async () => {
    const error = await client({ timeout: 200 })
      .create({ model: "sleepy", messages, sources })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as VerifiedError).status).toBe(0);
  });
});
