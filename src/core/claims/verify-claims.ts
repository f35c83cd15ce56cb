import type { Steps } from "../../util.js";
import { explainRowNumbers } from "../binding/index.js";
import { explainQuoteNumbers, explainSourceNumbers } from "../numbers/index.js";
import { type PreparedSource, prepareSources } from "../prepared-source.js";
import {
  expectQuotes,
  findQuote,
  quotePassesAtOnce,
  quoteSearchSteps,
  unsearchedQuoteChars,
} from "../quotes/index.js";
import type {
  CandidateClaim,
  Citation,
  ClaimCheckOptions,
  ClaimsResult,
  NumberMiss,
  Range,
  Source,
  UnsupportedClaim,
} from "../types.js";

/** The verdict on one candidate claim; `candidate` keeps what the model said, for retry feedback. */
export type ClaimVerdict =
  | { grounded: true; citation: Citation }
  | { grounded: false; unsupported: UnsupportedClaim; candidate: { quote: string; source: string } };

/** Sources as given, or already prepared once for this request (reused across retries). */
export type SourcesInput = readonly Source[] | ReadonlyMap<string, PreparedSource>;

function asPrepared(sources: SourcesInput): ReadonlyMap<string, PreparedSource> {
  return Array.isArray(sources) ? prepareSources(sources) : (sources as ReadonlyMap<string, PreparedSource>);
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Checks each candidate claim in order against the sources and returns one verdict per claim. */
export function judgeClaims(
  sources: SourcesInput,
  claims: readonly CandidateClaim[],
  options: ClaimCheckOptions = {},
): ClaimVerdict[] {
  const prepared = asPrepared(sources);
  expectClaimQuotes(prepared, claims, options);
  return claims.map((candidate) => judgeClaim(prepared, candidate, options));
}

/**
 * `judgeClaims` cut into steps: yields after each run of claims whose estimated work reaches `stepBudget`
 * (and before the next claim), so a caller can give the event loop a turn between slices. The verdicts are
 * `judgeClaims`'s, in order. A claim's work is estimated as its source's length plus its quote's and claim's
 * (every matcher and number check is linear in those, docs/performance.md), plus the quote-search steps it
 * took, a pass that found many quotes at once included; so a slice's cost is bounded by the budget plus one
 * claim and one such pass.
 */
export function* judgeClaimSteps(
  sources: SourcesInput,
  claims: readonly CandidateClaim[],
  options: ClaimCheckOptions,
  stepBudget: number,
): Steps<ClaimVerdict[]> {
  const verdicts: ClaimVerdict[] = [];
  const slices = judgeClaimSlices(sources, claims, options, stepBudget);
  for (;;) {
    const next = slices.next();
    verdicts.push(...next.value);
    if (next.done === true) return verdicts;
    yield;
  }
}

/**
 * `judgeClaims` as slices of verdicts, in order, each of claims whose estimated work reaches `stepBudget`:
 * yields each slice that more claims follow, and returns the last (perhaps empty). A caller that reports
 * verdicts as they come (a streamed create) reports each slice before the next is judged. Same verdicts and
 * cost as `judgeClaimSteps`. A slice also ends after a claim whose quote search ran a pass at once, and
 * between a claim's strict search that ran one and its near match's lenient search (that slice may be
 * empty): no slice holds two passes.
 */
export function* judgeClaimSlices(
  sources: SourcesInput,
  claims: readonly CandidateClaim[],
  options: ClaimCheckOptions,
  stepBudget: number,
): Generator<ClaimVerdict[], ClaimVerdict[], void> {
  const prepared = asPrepared(sources);
  expectClaimQuotes(prepared, claims, options);
  let slice: ClaimVerdict[] = [];
  let work = 0;
  for (const candidate of claims) {
    if (work >= stepBudget) {
      yield slice;
      slice = [];
      work = 0;
    }
    const source = prepared.get(text(candidate.source));
    let searchedBefore = source === undefined ? 0 : quoteSearchSteps(source);
    let passesBefore = source === undefined ? 0 : passesAtOnce(source);
    const judged = judgeQuote(prepared, candidate, options);
    let verdict: ClaimVerdict;
    if ("nearMiss" in judged) {
      // The strict search ran a pass at once and the near match's lenient search is still to run (often a
      // pass at once too): end the slice between them.
      const { source: cited, quote } = judged.nearMiss;
      if (passesAtOnce(cited) > passesBefore && unsearchedQuoteChars(cited, quote, "lenient") > 0) {
        yield slice;
        slice = [];
        work = 0;
        searchedBefore = quoteSearchSteps(cited);
        passesBefore = passesAtOnce(cited);
      }
      verdict = nearMissVerdict(judged.nearMiss);
    } else {
      verdict = judged;
    }
    slice.push(verdict);
    // The quote-search steps the claim took count too: a pass that found many announced quotes at once
    // (O(n + 64,000)) costs far more than the one claim that ran it.
    const searched = source === undefined ? 0 : quoteSearchSteps(source) - searchedBefore;
    work += claimWork(prepared, candidate) + searched;
    // A pass at once ends its slice, so that each pass gets a slice of its own (the next claim's, often a
    // pass of the other mode, included). At most two more slices per pass, so the slices stay
    // O(claims + Σm / n).
    if (source !== undefined && passesAtOnce(source) > passesBefore) work = Math.max(work, stepBudget);
  }
  return slice;
}

function passesAtOnce(source: PreparedSource): number {
  return quotePassesAtOnce(source, "strict") + quotePassesAtOnce(source, "lenient");
}

/**
 * Announces each claim's quote to its source, so that many distinct quotes against one source are found in
 * one pass once searching them one at a time grows costly (`findQuote`). O(Σm).
 */
function expectClaimQuotes(
  prepared: ReadonlyMap<string, PreparedSource>,
  claims: readonly CandidateClaim[],
  options: ClaimCheckOptions,
): void {
  const mode = options.mode ?? "strict";
  for (const candidate of claims) {
    const source = prepared.get(text(candidate.source));
    if (source === undefined) continue;
    expectQuotes(source, [text(candidate.quote)], mode);
    // A strict quote not found is looked for leniently too, for the near match it reports.
    if (mode === "strict") expectQuotes(source, [text(candidate.quote)], "lenient");
  }
}

function claimWork(prepared: ReadonlyMap<string, PreparedSource>, candidate: CandidateClaim): number {
  const source = prepared.get(text(candidate.source));
  return 1 + (source?.text.length ?? 0) + text(candidate.quote).length + text(candidate.claim).length;
}

// A refused claim's verdict. A module function, not a closure per claim: under loaders that keep
// function names (tsx) each closure made costs a `__name` call.
function rejected(
  claim: string,
  quote: string,
  sourceId: string,
  reason: UnsupportedClaim["reason"],
  more?: { detail?: NumberMiss | undefined; near?: UnsupportedClaim["near"] | undefined },
): ClaimVerdict {
  const unsupported: UnsupportedClaim = { claim, reason };
  if (more?.detail !== undefined) unsupported.detail = more.detail;
  // What the model tried, so a reader sees the quote and source it named, not only the verdict.
  if (quote !== "") unsupported.quote = quote;
  if (sourceId !== "") unsupported.source = sourceId;
  if (more?.near !== undefined) unsupported.near = more.near;
  return { grounded: false, unsupported, candidate: { quote, source: sourceId } };
}

/**
 * A strict quote that was not found: its verdict waits for the lenient search of the near match it reports
 * (where the quote is in the source under lenient matching: it differs only in case, punctuation or
 * spacing). The lenient quotes were announced with the strict ones, so a request's near misses cost
 * O(n + Σm) in all, like its quotes.
 */
interface NearMiss {
  claim: string;
  quote: string;
  sourceId: string;
  source: PreparedSource;
}

function nearMissVerdict({ claim, quote, sourceId, source }: NearMiss): ClaimVerdict {
  const range = findQuote(source, quote, "lenient");
  const near = range === null ? undefined : { quote: source.text.slice(range[0], range[1]), range };
  return rejected(claim, quote, sourceId, "quote_not_found", { near });
}

/** The verdict on one candidate claim: it does not depend on the request's other claims. */
function judgeClaim(
  prepared: ReadonlyMap<string, PreparedSource>,
  candidate: CandidateClaim,
  options: ClaimCheckOptions,
): ClaimVerdict {
  const judged = judgeQuote(prepared, candidate, options);
  return "nearMiss" in judged ? nearMissVerdict(judged.nearMiss) : judged;
}

/** `judgeClaim` up to the near match's search: the verdict, or the strict near miss still to look for. */
function judgeQuote(
  prepared: ReadonlyMap<string, PreparedSource>,
  candidate: CandidateClaim,
  options: ClaimCheckOptions,
): ClaimVerdict | { nearMiss: NearMiss } {
  const mode = options.mode ?? "strict";
  const numbersMode = numberCheckOf(options.checkNumbers);
  const quote = text(candidate.quote);
  const sourceId = text(candidate.source);
  const claim = text(candidate.claim).trim() || quote.trim();
  const source = prepared.get(sourceId);
  if (source === undefined) return rejected(claim, quote, sourceId, "unknown_source");
  const range = findQuote(source, quote, mode);
  if (range === null) {
    if (mode === "strict") return { nearMiss: { claim, quote, sourceId, source } };
    return rejected(claim, quote, sourceId, "quote_not_found");
  }
  const miss = numbersMode === undefined ? null : explainNumbers(claim, source, range, numbersMode);
  if (miss !== null)
    return rejected(claim, quote, sourceId, "number_not_found", {
      detail: options.explain === true ? miss : undefined,
    });
  const sliced = source.text.slice(range[0], range[1]);
  return { grounded: true, citation: { claim, quote: sliced, source: source.id, range } };
}

/** Assembles verdicts into the result: marked text, citations, unsupported claims and coverage. */
export function assembleClaims(verdicts: readonly ClaimVerdict[]): ClaimsResult {
  const citations: Citation[] = [];
  const unsupported: UnsupportedClaim[] = [];
  for (const verdict of verdicts) {
    if (verdict.grounded) citations.push(verdict.citation);
    else unsupported.push(verdict.unsupported);
  }
  return {
    text: citations.map((citation) => addSourceMarker(citation.claim, citation.source)).join(" "),
    citations,
    unsupported,
    coverage: verdicts.length === 0 ? 0 : citations.length / verdicts.length,
  };
}

/** Checks candidate claims against sources: the deterministic heart of create, eval and check. */
export function verifyClaims(
  sources: SourcesInput,
  claims: readonly CandidateClaim[],
  options: ClaimCheckOptions = {},
): ClaimsResult {
  return assembleClaims(judgeClaims(sources, claims, options));
}

// The full-width forms end sentences in Chinese and Japanese as `.`, `!` and `?` do elsewhere.
const sentenceEnds = new Set([".", "!", "?", "。", "！", "？"]);

/**
 * Places the marker ` [sourceId]` before a claim's final `.`, `!` or `?` (or `。`, `！`, `？`), or appends it when there is
 * none: `Revenue rose 5%.` → `Revenue rose 5% [q3].`
 */
export function addSourceMarker(claim: string, sourceId: string): string {
  const text = claim.trim();
  const marker = ` [${sourceId}]`;
  const last = text.at(-1);
  if (last !== undefined && sentenceEnds.has(last)) return `${text.slice(0, -1)}${marker}${last}`;
  return `${text}${marker}`;
}

/** A number check that runs: `true` is `source`. */
export type NumberCheck = "source" | "row" | "quote";

function numberCheckOf(option: ClaimCheckOptions["checkNumbers"]): NumberCheck | undefined {
  if (option === true) return "source";
  return option === "source" || option === "row" || option === "quote" ? option : undefined;
}

/**
 * Null when every number in `claim` is grounded in `source`: anywhere in its text (`source`), bound to the
 * table cell or line the claim names (`row`), or in the claim's own quote (`quote`); else the first number
 * that is not and what it was checked against. `quoteRange` is where the claim's quote matched.
 */
export function explainNumbers(
  claim: string,
  source: PreparedSource,
  quoteRange: Range,
  mode: NumberCheck,
): NumberMiss | null {
  if (mode === "row") return explainRowNumbers(claim, source, quoteRange);
  if (mode === "quote") return explainQuoteNumbers(claim, source, quoteRange);
  return explainSourceNumbers(claim, source);
}

/** True when every number in `claim` is grounded in `source` (see `explainNumbers`). */
export function checkNumbers(
  claim: string,
  source: PreparedSource,
  quoteRange: Range,
  mode: NumberCheck,
): boolean {
  return explainNumbers(claim, source, quoteRange, mode) === null;
}
