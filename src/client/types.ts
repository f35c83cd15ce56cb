// The client's view of the wire contract, in camelCase. They are declared here, not imported from the TypeBox
// schemas, so that `verified-answers/client` needs no schema library; types.contract.test.ts checks them against the
// schemas (the single source of each wire shape), so a drift fails the type check.

/** How a quote is compared with a source: `strict` is boundary-exact, `lenient` tolerates punctuation and case. */
export type MatchMode = "strict" | "lenient";

/**
 * The `checkNumbers` option: off, anywhere in the cited source (`true` or `"source"`), bound to the table
 * row, or in the claim's own quote.
 */
export type CheckNumbers = boolean | "source" | "row" | "quote";

/**
 * The unit every `range` of a result counts: UTF-16 code units (default; JavaScript's string index), code
 * points (Python's `str` index) or UTF-8 bytes.
 */
export type OffsetUnit = "utf16" | "codepoint" | "utf8";

/** `[start, end)` into a source's original text, in the request's `offsets` unit (UTF-16 code units by default). */
export type Range = [start: number, end: number];

/** A caller-supplied source chunk; `id` comes back in citations as `source`. */
export interface Source {
  id: string;
  text: string;
}

/** One conversation message. */
export interface Message {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A grounded claim. `sourceText.slice(range[0], range[1]) === quote`. */
export interface Citation {
  claim: string;
  quote: string;
  source: string;
  range: Range;
  /** Answer mode: the share of the claim's content words the quoted span holds, 0 to 1. */
  support?: number;
  /** Answer mode: `[start, end)` of the claim in the answer, its markers included. */
  answerRange?: Range;
}

/**
 * Why a claim was removed: `quote_not_found`, `unknown_source`, `number_not_found`; answer mode also
 * `no_support`, `partial_support` (with `partial: "drop"`), `entity_not_found` and `wrong_source`.
 */
export type UnsupportedReason =
  | "quote_not_found"
  | "unknown_source"
  | "number_not_found"
  | "no_support"
  | "partial_support"
  | "entity_not_found"
  | "wrong_source";

/** Answer mode: what a partially supported claim becomes (`keep`, the default, or `drop`). */
export type PartialPolicy = "keep" | "drop";

/** Answer mode: a content word of a kept, partially supported claim that none of its spans holds. */
export interface PartialTerm {
  /** The kept claim the word belongs to. */
  claim: string;
  /** The word as the answer writes it. */
  term: string;
  /** `[start, end)` of the word in the answer. */
  answerRange: Range;
}

/** A claim that could not be grounded. */
export interface UnsupportedClaim {
  claim: string;
  reason: UnsupportedReason;
  /** With `number_not_found`: the number that failed; in answer mode also why other checks failed. */
  detail?: NumberMiss | AnswerMiss;
  /** Answer mode: `[start, end)` of the claim in the answer, its markers included. */
  answerRange?: Range;
  /** Claims: the quote the model tried, as it wrote it. Answer mode: the claim's best span, when one was found (within `MAX_ANSWER_BEST_SPAN_CHARS` for the answer). */
  quote?: string;
  /** Claims: the source id the model named, as it wrote it. Answer mode: the source of the best span. */
  source?: string;
  /** Answer mode: the best span's range and support. */
  range?: Range;
  support?: number;
  /**
   * With `quote_not_found` in strict mode: where the named source holds the quote under lenient matching
   * (case, punctuation or spacing differ), and that source text.
   */
  near?: { quote: string; range: Range };
}

/** Answer mode: why a claim was dropped (`foundIn` always comes with `wrong_source`). */
export interface AnswerMiss {
  /** The sources that do support a `wrong_source` claim. */
  foundIn?: string[];
  /** With `no_support`: the claim's content words its best span lacks; with `partial_support`, its spans. */
  words?: string[];
  /** With `entity_not_found`: the name no source holds. */
  entity?: string;
  /** With `quote_not_found`: the quotation not found. */
  quotation?: string;
  /** With `quote_not_found` in strict mode: the source holds the quotation with only its case different. */
  differsOnlyIn?: "first_letter_case" | "case";
  /** With `differsOnlyIn`: the quotation as the source writes it. */
  sourceText?: string;
  /** With `unknown_source`: the marker that names no source. */
  marker?: string;
}

/** Why a number check dropped a claim: the failing number and the cells, line, quote or source checked. */
export interface NumberMiss {
  number: string;
  checked: "cells" | "line" | "quote" | "source";
  cells?: { row: string; column: string; text: string }[];
  text?: string;
  /** Answer mode: the source sentence that holds the number, outside the spans that support the claim. */
  seen?: string;
}

/** Token and call counts of a create or extract request. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  modelCalls: number;
}

/** Token and call counts of an eval or check request. */
export interface CallUsage {
  totalTokens: number;
  modelCalls: number;
}

/** Body of `create` (`POST /v1/verified`). */
export interface CreateParams {
  model: string;
  messages: Message[];
  sources: Source[];
  /** Default `strict`. */
  mode?: MatchMode;
  /** The unit of every `range` in the result. Default `utf16`. */
  offsets?: OffsetUnit;
  /** 0..1; when the result's coverage is below it, the result has `abstained: true`. Default 0 (off). */
  minCoverage?: number;
  /** Regenerate up to N more times while any claim is unsupported. Default 0. */
  retry?: number;
  /** Numbers in a claim must appear verbatim in its source (or its table row). Default false. */
  checkNumbers?: CheckNumbers;
  /** Give each claim the number check dropped a `detail` of why. Default false. */
  explain?: boolean;
  /** Return a flagged plain answer (`grounded: false`) instead of an `UngroundedError`. Default false. */
  allowUngrounded?: boolean;
  /** `json` (default): claims with quotes; `text`: prose with `[id]` markers, checked as an answer. */
  answerFormat?: "json" | "text";
  /** With `answerFormat: "text"`: keep (default) or drop partially supported claims. */
  partial?: PartialPolicy;
  temperature?: number;
  maxTokens?: number;
}

/** Result of `create`. */
export interface CreateResult {
  id: string;
  model: string;
  /** The grounded answer with inline `[sourceId]` markers. */
  text: string;
  citations: Citation[];
  unsupported: UnsupportedClaim[];
  /** With `answerFormat: "text"`: the words of kept claims that their spans lack. */
  partial?: PartialTerm[];
  /**
   * With `answerFormat: "text"`: the model's answer as written, before its unsupported sentences were removed;
   * every `answerRange` (and each `partial` word's) counts into it. `text` is it with the drops removed.
   */
  answer?: string;
  /** Grounded claims / total claims; 0 when there are no claims. */
  coverage: number;
  abstained: boolean;
  /** false only when `allowUngrounded` was set and the service fell back to a plain answer. */
  grounded: boolean;
  usage: Usage;
}

/** Field name → a short, concrete description of the wanted value. The keys are yours and are sent as-is. */
export type ExtractSchema = Record<string, string>;

/** Body of `extract` (`POST /v1/verified/extract`). */
export interface ExtractParams<S extends ExtractSchema = ExtractSchema> {
  model: string;
  sources: Source[];
  schema: S;
  /** Default `strict`. */
  mode?: MatchMode;
  /** The unit of every `range` in the result. Default `utf16`. */
  offsets?: OffsetUnit;
}

/** One extracted field: a verbatim substring of a source, or null when it was not found. */
export type ExtractField =
  | { value: string; source: string; range: Range; grounded: true }
  | { value: null; grounded: false; reason: "not_found" };

/** Result of `extract`; `fields` has exactly the keys of the request's `schema`. */
export interface ExtractResult<S extends ExtractSchema = ExtractSchema> {
  id: string;
  model: string;
  fields: { [K in keyof S]: ExtractField };
  /** Grounded fields / total fields. */
  coverage: number;
  usage: Usage;
}

/** One dataset case: a conversation and its sources, with an optional `id` the result echoes. */
export interface EvalCase {
  /** Your name for the case: 1 to 256 characters, or a number; its result carries it back as a string. */
  id?: string | number;
  messages: Message[];
  sources: Source[];
  /**
   * An acceptable answer, or a list of 1 to 20: the case is `correct` when one occurs in a grounded claim
   * (case and punctuation ignored, numbers compared by value).
   */
  expected?: string | string[];
}

/** Body of `eval` (`POST /v1/verified/eval`): 1 to 200 cases. */
export interface EvalParams {
  model: string;
  cases: EvalCase[];
  /** Default `strict`. */
  mode?: MatchMode;
  /** The unit of every `range` in the result. Default `utf16`. */
  offsets?: OffsetUnit;
  checkNumbers?: CheckNumbers;
  retry?: number;
  minCoverage?: number;
  /** `json` (default) or `text`: how the model answers each case, as for create. */
  answerFormat?: "json" | "text";
  /** With `answerFormat: "text"`: keep (default) or drop partially supported claims, as for create. */
  partial?: PartialPolicy;
  /** As for create: each dropped claim of a case's `result` (with `details`) says why in `detail`. */
  explain?: boolean;
  /**
   * When true, each scored case also carries `result`: its create-style answer, or `resultOmitted` when that
   * is longer than its share of the details budget. Default false.
   */
  details?: boolean;
}

/** A case's create-style result, present when the eval asked for `details`. */
export interface EvalCaseDetails {
  /** The grounded answer with inline `[sourceId]` markers. */
  text: string;
  citations: Citation[];
  /** The claims that were dropped, each with its reason. */
  unsupported: UnsupportedClaim[];
  /** With `answerFormat: "text"`: the words of kept claims that their spans lack. */
  partial?: PartialTerm[];
  /**
   * With `answerFormat: "text"`: the model's answer as written, before its unsupported sentences were removed;
   * every `answerRange` (and each `partial` word's) counts into it. `text` is it with the drops removed.
   */
  answer?: string;
  coverage: number;
  abstained: boolean;
  grounded: boolean;
  usage: Usage;
}

/** The scores of a case that ran. */
export interface EvalCaseScore {
  /** The case's `id`, when it had one. */
  id?: string;
  /** Grounded claims / total claims for the case. */
  coverage: number;
  /** Count of grounded claims. */
  citations: number;
  /** Count of unsupported claims. */
  unsupported: number;
  /** With `expected`: whether one of its answers occurs in a grounded claim. */
  correct?: boolean;
  /** With `correct: true`: which expected answer matched and where. */
  match?: ExpectedMatch;
  /** The create-style result, with `details: true`. */
  result?: EvalCaseDetails;
  /**
   * With `details: true`, instead of `result`: the result's JSON was longer than the case's share of the
   * answer's details budget (MAX_EVAL_DETAILS_CHARS divided by the number of cases). Run the case alone as a
   * create to see it.
   */
  resultOmitted?: "details_budget";
  error?: undefined;
}

/** Which expected answer a correct case's grounded claims hold, and where. */
export interface ExpectedMatch {
  /** The expected answer that matched, as the case wrote it. */
  expected: string;
  /** The index, in the case's citations, of the grounded claim that holds it. */
  citation: number;
  /** `[start, end)` in that claim's text (UTF-16). */
  range: Range;
}

/** Why a single case failed; the case is left out of the aggregate. */
export interface EvalCaseError {
  type: string;
  code: string;
  message: string;
}

/** A case that failed (for example an extraction failure). */
export interface EvalCaseFailure {
  /** The case's `id`, when it had one. */
  id?: string;
  error: EvalCaseError;
}

/** One entry of an eval result, in request order. Narrow with `entry.error === undefined`. */
export type EvalCaseResult = EvalCaseScore | EvalCaseFailure;

/** Aggregate scores of an eval. */
export interface EvalAggregate {
  /** Mean of per-case coverage over the cases that did not error; 0 when none. */
  coverageMean: number;
  /** Total unsupported claims / total claims over the cases that did not error; 0 when none. */
  unsupportedRate: number;
  /** Every case, errored ones included. */
  n: number;
  errored: number;
  /** Correct cases over the cases without an error that carry `expected`; absent when there are none. */
  correctRate?: number;
}

/** Result of `eval`. */
export interface EvalResult {
  aggregate: EvalAggregate;
  cases: EvalCaseResult[];
  usage: CallUsage;
}

/** A dataset case for `evalAll`; the optional `id` stays in the client and labels the case's result. */
export interface EvalAllCase extends EvalCase {
  id?: string | number;
}

/** Progress of an `evalAll` run, counted in cases. */
export interface EvalProgress {
  done: number;
  total: number;
}

/** Parameters of `evalAll`: any number of cases, paged into requests of at most 200. */
export interface EvalAllParams extends Omit<EvalParams, "cases"> {
  cases: EvalAllCase[];
  /** Called as cases complete: one by one (pages are then streamed), or per page from a server that does not stream. */
  onProgress?: (progress: EvalProgress) => void;
  /** Pages in flight at once. Default 2. */
  concurrency?: number;
}

/** One case of an `evalAll` result, labelled with the case's `id` when it had one. */
export type EvalAllCaseResult = EvalCaseResult & { id?: string };

/** Result of `evalAll`: the pages merged as if the dataset had been one request. */
export interface EvalAllResult {
  aggregate: EvalAggregate;
  cases: EvalAllCaseResult[];
  usage: CallUsage;
}

/** A claim you already have, to be verified by `check`; without `claim`, the quote is the claim. */
export interface CheckClaim {
  claim?: string;
  quote: string;
  source: string;
}

/**
 * Body of `check` (`POST /v1/verified/check`): verify claims, or a plain answer with citation markers,
 * without a model. Send exactly one of `claims` and `answer`.
 */
export interface CheckParams {
  sources: Source[];
  claims?: CheckClaim[];
  /** A plain answer with markers such as `[1]`, `[doc-a]`, `[^1]` or `【4:0†name】`, checked claim by claim. */
  answer?: string;
  /** With `answer`: the conversation; the user's words are context, not new facts. */
  messages?: Message[];
  /** Default `strict`. */
  mode?: MatchMode;
  /** The unit of every `range` in the result. Default `utf16`. */
  offsets?: OffsetUnit;
  checkNumbers?: CheckNumbers;
  /** Give each claim the number check dropped a `detail` of why. Default false. */
  explain?: boolean;
  /** With `answer`: keep (default) partially supported claims, their unsupported words in `partial`, or drop them. */
  partial?: PartialPolicy;
}

/** Result of `check`; no model is called, so usage is zero. */
export interface CheckResult {
  text: string;
  citations: Citation[];
  unsupported: UnsupportedClaim[];
  /** With `answer`: the words of kept claims that their spans lack, each with its place in the answer. */
  partial?: PartialTerm[];
  coverage: number;
  usage: CallUsage;
}

/** Options for one call. */
export interface RequestOptions {
  /** Aborts the call (and its retries); the call rejects with a `UserAbortError`. */
  signal?: AbortSignal;
  /** Overrides the client's `timeout` (milliseconds per attempt) for this call. */
  timeout?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
}

/** One model id or pattern the service accepts (`GET /v1/models`). */
export interface ModelListEntry {
  /** A model id, a prefix pattern (`ollama/*`), or `*` (any id no other entry matches). */
  id: string;
  match: "exact" | "prefix" | "any";
  /** The configured gateway the model goes to; null for the built-in local model. */
  gateway: string | null;
}

/** What `listModels` returns. */
export interface ModelList {
  models: ModelListEntry[];
}

/** Where a chat request's sources came from (`sourcesFrom` of the report). */
export type SourcesFrom = "verification" | "documents" | "tool_messages";

/** The `verification` object of `chat.completions.create`: check the answer against sources. */
export interface VerificationParams {
  /** Default: the request's `documents`, else its tool messages. */
  sources?: Source[];
  mode?: MatchMode;
  checkNumbers?: CheckNumbers;
  explain?: boolean;
  /** Keep (default) partially supported claims, their unsupported words in the report's `partial`, or drop them. */
  partial?: PartialPolicy;
  /** `score` (default), `remove` (unsupported sentences cut) or `block` (a failing answer is an `UngroundedError`). */
  action?: "score" | "remove" | "block";
  /** The answer passes when its coverage reaches this; absent, when no claim is unsupported. */
  minCoverage?: number;
  /** The unit of the report's ranges. Default `utf16`. */
  offsets?: OffsetUnit;
  /** Add the citation instruction and the sources to the system prompt. */
  instruct?: boolean;
  /** Streamed: hold each sentence until it is checked. */
  hold?: boolean;
}

/** The verification report on a chat completion (and on the last chunk of a stream). */
export interface VerificationReport {
  verdict: "pass" | "fail";
  action: "score" | "remove" | "block";
  sourcesFrom: SourcesFrom;
  /** The answer without its unsupported sentences. */
  text: string;
  citations: Citation[];
  unsupported: UnsupportedClaim[];
  /** Each content word of a kept, partially supported claim that none of its spans holds. */
  partial: PartialTerm[];
  coverage: number;
  abstained: boolean;
}

/**
 * `chat.completions.create` parameters: the OpenAI Chat Completions body in camelCase (every field is sent,
 * as snake_case), plus `verification`.
 */
export interface ChatCompletionParams {
  model: string;
  messages: ({ role: string } & Record<string, unknown>)[];
  stream?: boolean;
  verification?: VerificationParams;
  [field: string]: unknown;
}

/** A chat completion as the gateway sent it (camelCase), with the report when verification was asked. */
export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: {
    index: number;
    message: { role: "assistant"; content: string | null; [field: string]: unknown };
    finishReason: string | null;
    [field: string]: unknown;
  }[];
  usage?: { promptTokens: number; completionTokens: number; totalTokens: number; [field: string]: unknown };
  verification?: VerificationReport;
  [field: string]: unknown;
}

/** One chunk of a streamed chat completion (camelCase); the last before `[DONE]` carries the report. */
export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: {
    index: number;
    delta: { role?: string; content?: string | null; [field: string]: unknown };
    finishReason: string | null;
    [field: string]: unknown;
  }[];
  usage?: { promptTokens: number; completionTokens: number; totalTokens: number; [field: string]: unknown };
  verification?: VerificationReport;
  [field: string]: unknown;
}
