import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, InsufficientQuotaError, UserAbortError } from "./errors.js";
import { type EvalPage, evalAll, mergeEvalResults } from "./eval-all.js";
import type { EvalAllCase, EvalCaseResult, EvalProgress, EvalResult } from "./types.js";
import { Verified } from "./verified.js";

// A scripted eval endpoint: case i (its user message is "case i") scores i % 4 citations and i % 3
// unsupported claims, except the ERRORED case, which fails. Each page answers with its own aggregate, the
// way the service does, so a client that averaged page means would get a different coverageMean.
const ERRORED = 317;

interface WireCase {
  messages: { role: string; content: string }[];
  sources: { id: string; text: string }[];
}

interface EvalRequest {
  model: string;
  cases: WireCase[];
  [option: string]: unknown;
}

function scoreWireCase(index: number) {
  if (index === ERRORED) {
    return { error: { type: "extraction_failed", code: "extraction_failed", message: "unusable output" } };
  }
  const citations = index % 4;
  const unsupported = index % 3;
  const claims = citations + unsupported;
  return { coverage: claims === 0 ? 0 : citations / claims, citations, unsupported };
}

function answerPage(request: EvalRequest) {
  const cases = request.cases.map((evalCase) =>
    scoreWireCase(Number(evalCase.messages[0]?.content.slice(5))),
  );
  const scored = cases.filter((entry) => !("error" in entry)) as {
    coverage: number;
    citations: number;
    unsupported: number;
  }[];
  const claims = scored.reduce((total, entry) => total + entry.citations + entry.unsupported, 0);
  return {
    aggregate: {
      coverage_mean: scored.reduce((total, entry) => total + entry.coverage, 0) / scored.length,
      unsupported_rate: scored.reduce((total, entry) => total + entry.unsupported, 0) / claims,
      n: cases.length,
      errored: cases.length - scored.length,
    },
    cases,
    usage: { total_tokens: 10 * cases.length, model_calls: cases.length + 1 },
  };
}

type Script = (
  request: EvalRequest,
  pageNumber: number,
) => {
  status: number;
  body: unknown;
  delayMs?: number;
  /** Never answer: only the client's abort ends the page. */
  hang?: true;
  /** Answer only once this many pages have arrived (so every page of a run is in flight). */
  afterPages?: number;
};

let server: Server;
let baseURL: string;
let received: EvalRequest[] = [];
let abandoned = 0;
let script: Script = (request) => ({ status: 200, body: answerPage(request) });
/** Answers waiting for more pages to arrive (`afterPages`). */
let waiting: { afterPages: number; send: () => void }[] = [];

beforeAll(async () => {
  server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as EvalRequest;
      received.push(request);
      const response = script(request, received.length);
      for (const entry of waiting.filter((each) => received.length >= each.afterPages)) entry.send();
      waiting = waiting.filter((each) => received.length < each.afterPages);
      let answered = false;
      outgoing.on("close", () => {
        if (!answered) abandoned += 1;
      });
      // A hung page is never answered: only the client's abort ends it.
      if (response.hang) return;
      const send = () =>
        setTimeout(() => {
          if (outgoing.destroyed) return;
          answered = true;
          outgoing.writeHead(response.status, { "content-type": "application/json" });
          outgoing.end(JSON.stringify(response.body));
        }, response.delayMs ?? 20);
      if (response.afterPages !== undefined && received.length < response.afterPages) {
        waiting.push({ afterPages: response.afterPages, send });
      } else {
        send();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  received = [];
  abandoned = 0;
  waiting = [];
  script = (request) => ({ status: 200, body: answerPage(request) });
});

const verified = () => new Verified({ apiKey: "test-key", baseURL, sleep: async () => {}, maxRetries: 0 });

/** A page's result as `Verified.eval` returns it: every case scored 1 of 1. */
function scoredPage(size: number): EvalResult {
  return {
    aggregate: { coverageMean: 1, unsupportedRate: 0, n: size, errored: 0 },
    cases: Array.from({ length: size }, () => ({ coverage: 1, citations: 1, unsupported: 0 })),
    usage: { totalTokens: 0, modelCalls: 0 },
  };
}

/** Lets every promise callback already queued run (several hops: a page's end starts the next page). */
async function flushMicrotasks(): Promise<void> {
  for (let hop = 0; hop < 20; hop += 1) await Promise.resolve();
}

function dataset(size: number): EvalAllCase[] {
  return Array.from({ length: size }, (_, index) => ({
    id: `row-${index}`,
    messages: [{ role: "user", content: `case ${index}` }],
    sources: [{ id: "s", text: `source of case ${index}` }],
  }));
}

/** The aggregate computed straight from per-case results, with no paging in sight. */
function directAggregate(cases: EvalCaseResult[]) {
  const scored = cases.filter((entry) => entry.error === undefined);
  const claims = scored.reduce((total, entry) => total + entry.citations + entry.unsupported, 0);
  return {
    coverageMean: scored.reduce((total, entry) => total + entry.coverage, 0) / scored.length,
    unsupportedRate: scored.reduce((total, entry) => total + entry.unsupported, 0) / claims,
    n: cases.length,
    errored: cases.length - scored.length,
  };
}

describe("evalAll", () => {
  it("pages 450 cases into 200, 200 and 50 and merges them exactly", async () => {
    const cases = dataset(450);
    const progress: EvalProgress[] = [];

    const result = await verified().evalAll({
      model: "local",
      mode: "lenient",
      cases,
      checkNumbers: "row",
      retry: 1,
      minCoverage: 0.5,
      onProgress: (update) => progress.push(update),
    });

    expect(received.map((request) => request.cases.length).sort()).toEqual([200, 200, 50]);
    for (const request of received) {
      // With onProgress the pages are streamed; this server answers JSON, which the client also reads.
      expect(Object.keys(request).sort()).toEqual([
        "cases",
        "check_numbers",
        "min_coverage",
        "mode",
        "model",
        "retry",
        "stream",
      ]);
      expect({ ...request, cases: [] }).toEqual({
        model: "local",
        mode: "lenient",
        check_numbers: "row",
        retry: 1,
        min_coverage: 0.5,
        stream: true,
        cases: [],
      });
      // The service rejects unknown fields: the caller's ids never leave the client.
      for (const wireCase of request.cases)
        expect(Object.keys(wireCase).sort()).toEqual(["messages", "sources"]);
    }

    // Order and labels: entry i is case i's score, labelled with its id.
    expect(result.cases).toEqual(cases.map((_, index) => ({ id: `row-${index}`, ...scoreWireCase(index) })));
    expect(result.cases[ERRORED]?.error?.type).toBe("extraction_failed");

    expect(result.aggregate).toEqual(directAggregate(result.cases));
    expect(result.aggregate.n).toBe(450);
    expect(result.aggregate.errored).toBe(1);
    expect(result.usage).toEqual({ totalTokens: 4500, modelCalls: 450 + 3 });

    // The naive merges differ, so the test would catch them.
    const pageResults = received.map(answerPage);
    const meanOfMeans =
      pageResults.reduce((total, page) => total + page.aggregate.coverage_mean, 0) / pageResults.length;
    expect(Math.abs(meanOfMeans - result.aggregate.coverageMean)).toBeGreaterThan(1e-4);
    const meanOfRates =
      pageResults.reduce((total, page) => total + page.aggregate.unsupported_rate, 0) / pageResults.length;
    expect(Math.abs(meanOfRates - result.aggregate.unsupportedRate)).toBeGreaterThan(1e-4);

    expect(progress.map((update) => update.total)).toEqual([450, 450, 450]);
    expect(progress.map((update) => update.done).sort((a, b) => a - b)).toEqual(
      progress.map((update) => update.done),
    );
    expect(progress.at(-1)).toEqual({ done: 450, total: 450 });
  });

  it("leaves cases without an id unlabelled", async () => {
    const cases = dataset(3).map(({ messages, sources }) => ({ messages, sources }));
    const result = await verified().evalAll({ model: "local", cases });
    expect(result.cases).toEqual([scoreWireCase(0), scoreWireCase(1), scoreWireCase(2)]);
  });

  it.each([
    [1, 1],
    [2, 2],
    [3, 3],
    [undefined, 2],
  ])(
    "keeps at most concurrency=%s pages in flight (%i), starting the next as one ends",
    async (concurrency, expected) => {
      // Pages are answered by the test, one at a time, so what is in flight depends on no timer.
      const held: { resolve: () => void }[] = [];
      let started = 0;
      const evalPage: EvalPage = (page) => {
        started += 1;
        return new Promise((resolve) => {
          held.push({ resolve: () => resolve(scoredPage(page.cases.length)) });
        });
      };
      const run = evalAll(evalPage, {
        model: "local",
        cases: dataset(1000),
        ...(concurrency === undefined ? {} : { concurrency }),
      });
      const inFlightBefore: number[] = [];
      for (let answered = 0; answered < 5; answered += 1) {
        await flushMicrotasks();
        inFlightBefore.push(started - answered);
        held[answered]?.resolve();
      }
      const result = await run;
      expect(result.cases).toHaveLength(1000);
      expect(started).toBe(5);
      // Before each answer: `expected` pages in flight until fewer than that are left.
      expect(inFlightBefore).toEqual([0, 1, 2, 3, 4].map((answered) => Math.min(expected, 5 - answered)));
    },
  );

  it.each([
    [401, "invalid_key", AuthenticationError],
    [402, "insufficient_quota", InsufficientQuotaError],
  ])("stops the run on a %i, aborting the pages in flight", async (status, type, ErrorClass) => {
    script = (request, pageNumber) =>
      pageNumber === 2
        ? { status, body: { error: { type, code: type, message: `refused: ${type}` } }, afterPages: 3 }
        : { status: 200, body: answerPage(request), hang: true };
    const progress: EvalProgress[] = [];

    // Pages 1 and 3 are never answered, so the run can end only by aborting them.
    const error = await verified()
      .evalAll({ model: "local", cases: dataset(2000), concurrency: 3, onProgress: (p) => progress.push(p) })
      .catch((caught) => caught);

    expect(error).toBeInstanceOf(ErrorClass);
    expect({ status: error.status, type: error.type, message: error.message }).toEqual({
      status,
      type,
      message: `refused: ${type}`,
    });
    expect(received).toHaveLength(3); // no page starts after the failure
    await expect.poll(() => abandoned).toBe(2); // the two hung pages were aborted
    expect(progress).toEqual([]);
  });

  it("rejects with UserAbortError when the caller aborts", async () => {
    const controller = new AbortController();
    // Aborted once both pages in flight have reached the service (not after a fixed delay, which a loaded
    // machine may not honour): no third page may start after it.
    script = (request, pageNumber) => {
      if (pageNumber === 2) controller.abort();
      return { status: 200, body: answerPage(request), hang: true };
    };
    await expect(
      verified().evalAll({ model: "local", cases: dataset(600) }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(UserAbortError);
    expect(received).toHaveLength(2);
  });

  it("returns an empty result for no cases without a request", async () => {
    await expect(verified().evalAll({ model: "local", cases: [] })).resolves.toEqual({
      aggregate: { coverageMean: 0, unsupportedRate: 0, n: 0, errored: 0 },
      cases: [],
      usage: { totalTokens: 0, modelCalls: 0 },
    });
    expect(received).toHaveLength(0);
  });

  it.each([0, -1, 1.5, Number.NaN])("rejects concurrency %s", async (concurrency) => {
    await expect(
      verified().evalAll({ model: "local", cases: dataset(1), concurrency }),
    ).rejects.toBeInstanceOf(RangeError);
    expect(received).toHaveLength(0);
  });
});

describe("mergeEvalResults", () => {
  const page = (cases: EvalCaseResult[], n: number, errored: number, tokens: number): EvalResult => ({
    aggregate: { coverageMean: Number.NaN, unsupportedRate: Number.NaN, n, errored },
    cases,
    usage: { totalTokens: tokens, modelCalls: n },
  });

  it("means over cases, not over pages, and sums the counts", () => {
    const failed = { error: { type: "gateway_error", code: "gateway_error", message: "m" } };
    const merged = mergeEvalResults([
      page([{ coverage: 1, citations: 4, unsupported: 0 }], 1, 0, 5),
      page(
        [
          { coverage: 0, citations: 0, unsupported: 2 },
          { coverage: 0.5, citations: 1, unsupported: 1 },
          failed,
        ],
        3,
        1,
        7,
      ),
    ]);
    expect(merged).toEqual({
      aggregate: { coverageMean: 0.5, unsupportedRate: 3 / 8, n: 4, errored: 1 },
      cases: [
        { coverage: 1, citations: 4, unsupported: 0 },
        { coverage: 0, citations: 0, unsupported: 2 },
        { coverage: 0.5, citations: 1, unsupported: 1 },
        failed,
      ],
      usage: { totalTokens: 12, modelCalls: 4 },
    });
  });

  it("merges correctRate over the cases with expected across pages, not as a mean of page rates", () => {
    const scored = (correct?: boolean) => ({
      coverage: 1,
      citations: 1,
      unsupported: 0,
      ...(correct === undefined ? {} : { correct }),
    });
    // Page rates 1/1 and 1/3 would average to 2/3; over the cases it is 2/4.
    const merged = mergeEvalResults([
      page([scored(true), scored()], 2, 0, 0),
      page([scored(true), scored(false), scored(false)], 3, 0, 0),
    ]);
    expect(merged.aggregate.correctRate).toBe(0.5);
    expect(mergeEvalResults([page([scored()], 1, 0, 0)]).aggregate).not.toHaveProperty("correctRate");
  });

  it("is 0, not NaN, when every case errored or had no claims", () => {
    const failed = { error: { type: "t", code: "t", message: "m" } };
    expect(mergeEvalResults([page([failed], 1, 1, 0)]).aggregate).toEqual({
      coverageMean: 0,
      unsupportedRate: 0,
      n: 1,
      errored: 1,
    });
    expect(
      mergeEvalResults([page([{ coverage: 0, citations: 0, unsupported: 0 }], 1, 0, 0)]).aggregate,
    ).toEqual({
      coverageMean: 0,
      unsupportedRate: 0,
      n: 1,
      errored: 0,
    });
  });
});
