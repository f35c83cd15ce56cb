import { aggregateCases } from "../core/index.js";
import { MAX_EVAL_CASE_ID_LENGTH, MAX_EVAL_CASES } from "../limits.js";
import { VerifiedError } from "./errors.js";
import { userAbortError } from "./post-json.js";
import type {
  EvalAllCaseResult,
  EvalAllParams,
  EvalAllResult,
  EvalCase,
  EvalCaseResult,
  EvalParams,
  EvalResult,
} from "./types.js";

/** Cases per eval request: the service's limit. */
export const EVAL_PAGE_SIZE = MAX_EVAL_CASES;
/** Pages in flight at once unless `concurrency` says otherwise. */
export const DEFAULT_EVAL_CONCURRENCY = 2;

/**
 * Why `id` cannot name an eval case, or undefined when it can: the service's rule (its schema's
 * `EvalCaseIdSchema`), a string of 1 to MAX_EVAL_CASE_ID_LENGTH characters or a finite number.
 */
export function evalCaseIdProblem(id: unknown): string | undefined {
  if (typeof id === "number") return Number.isFinite(id) ? undefined : "must be a finite number";
  if (typeof id !== "string") return "must be a string or a number";
  if (id.length === 0) return "must not be empty";
  if (id.length > MAX_EVAL_CASE_ID_LENGTH) {
    return `is ${id.length} characters long; the limit is ${MAX_EVAL_CASE_ID_LENGTH}`;
  }
  return undefined;
}

/** One eval request, as `Verified.eval` makes it; a streamed one calls `onCase` as each case finishes. */
export type EvalPage = (
  params: EvalParams,
  options: { signal: AbortSignal; onCase: () => void },
) => Promise<EvalResult>;

/**
 * Runs a dataset of any size through `evalPage` in pages of 200, at most `concurrency` in flight, and merges
 * the pages exactly (see `mergeEvalResults`). The first page that fails (after the client's own retries;
 * an auth or quota error among them) aborts the pages in flight and rejects the run with its error.
 */
export async function evalAll(
  evalPage: EvalPage,
  params: EvalAllParams,
  signal?: AbortSignal,
): Promise<EvalAllResult> {
  const { cases, onProgress, concurrency = DEFAULT_EVAL_CONCURRENCY, ...shared } = params;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`"concurrency" must be a whole number of at least 1; got ${concurrency}.`);
  }
  // The ids stay here (pages go out without them), so they are held to the service's rule here.
  for (const [index, { id }] of cases.entries()) {
    const problem = id === undefined ? undefined : evalCaseIdProblem(id);
    if (problem !== undefined) throw new RangeError(`"cases[${index}].id" ${problem}.`);
  }
  if (signal?.aborted) throw userAbortError(signal);
  const pageStarts: number[] = [];
  for (let start = 0; start < cases.length; start += EVAL_PAGE_SIZE) pageStarts.push(start);

  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", forwardAbort, { once: true });
  const pageResults: EvalResult[] = [];
  let nextPage = 0;
  let done = 0;
  let failure: { error: unknown } | undefined;

  const worker = async (): Promise<void> => {
    while (failure === undefined && nextPage < pageStarts.length) {
      const page = nextPage++;
      const start = pageStarts[page] ?? 0;
      const pageCases = cases.slice(start, start + EVAL_PAGE_SIZE);
      // Cases of this page already reported one by one (a streamed page), so the page's end adds the rest.
      let reported = 0;
      const onCase = () => {
        if (failure !== undefined || reported >= pageCases.length) return;
        reported += 1;
        done += 1;
        onProgress?.({ done, total: cases.length });
      };
      try {
        // Each case's `id` stays here and labels its result; a page carries only what is scored.
        const wireCases = pageCases.map(({ id: _id, ...evalCase }): EvalCase => evalCase);
        const result = await evalPage({ ...shared, cases: wireCases }, { signal: controller.signal, onCase });
        if (result.cases.length !== pageCases.length) {
          throw new VerifiedError({
            type: "invalid_response",
            status: 200,
            message: `An eval page of ${pageCases.length} cases came back with ${result.cases.length} results.`,
          });
        }
        pageResults[page] = result;
        if (reported < pageCases.length) {
          done += pageCases.length - reported;
          reported = pageCases.length;
          onProgress?.({ done, total: cases.length });
        }
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          controller.abort();
        }
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, pageStarts.length) }, worker));
  } finally {
    signal?.removeEventListener("abort", forwardAbort);
  }
  if (failure !== undefined) throw failure.error;

  const merged = mergeEvalResults(pageResults);
  return {
    ...merged,
    cases: merged.cases.map((entry, index): EvalAllCaseResult => {
      const id = cases[index]?.id;
      return id === undefined ? entry : { id: String(id), ...entry };
    }),
  };
}

/**
 * Merges eval results as if they had been one request: `coverageMean` is the mean over every non-errored
 * case of every result (not a mean of means), `unsupportedRate` is total unsupported over total claims, and
 * `n`, `errored` and usage are summed. Cases keep their order.
 */
export function mergeEvalResults(results: EvalResult[]): EvalResult {
  const cases: EvalCaseResult[] = results.flatMap((result) => result.cases);
  const sum = (pick: (result: EvalResult) => number) =>
    results.reduce((total, result) => total + pick(result), 0);
  return {
    aggregate: aggregateCases(cases),
    cases,
    usage: {
      totalTokens: sum((result) => result.usage.totalTokens),
      modelCalls: sum((result) => result.usage.modelCalls),
    },
  };
}
