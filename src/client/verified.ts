import { API_PATHS, OPERATION_PATHS } from "../api-paths.js";
import { trimTrailing } from "../util.js";
import { fromWire, toWire } from "./case-mapping.js";
import { type ChatCompletions, toChatEvent } from "./chat-completions.js";
import { evalAll } from "./eval-all.js";
import { type FetchLike, postJson, type Sleep, sleep, type Transport, withRetries } from "./post-json.js";
import {
  type CreateStreamEvent,
  type EvalStreamEvent,
  openStream,
  type StreamSettlement,
  toCreateEvent,
  toEvalEvent,
  type VerifiedStream,
} from "./stream.js";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionParams,
  CheckParams,
  CheckResult,
  CreateParams,
  CreateResult,
  EvalAllParams,
  EvalAllResult,
  EvalParams,
  EvalResult,
  ExtractParams,
  ExtractResult,
  ExtractSchema,
  ModelList,
  RequestOptions,
  VerificationReport,
} from "./types.js";

/** Where the service listens unless `baseURL` says otherwise. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";
/** Milliseconds per attempt. */
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

/** Options of `new Verified()`. */
export interface VerifiedOptions {
  /** Sent as `Authorization: Bearer <apiKey>`. Default: `VERIFIED_API_KEY` where `process.env` exists. */
  apiKey?: string | undefined;
  /**
   * Default: `VERIFIED_BASE_URL` where `process.env` exists, else `http://127.0.0.1:8787`. May carry a path
   * prefix (`https://example.com/verified`).
   */
  baseURL?: string | undefined;
  /** Milliseconds per attempt, response body included. Default 60 000. */
  timeout?: number | undefined;
  /** Retries on 429, 5xx and network errors, with backoff and jitter. Default 2. */
  maxRetries?: number | undefined;
  /** A `fetch` implementation. Default `globalThis.fetch`. */
  fetch?: FetchLike | undefined;
  /** Waits between retries. For tests; default `setTimeout`. */
  sleep?: Sleep | undefined;
  /** Jitter source in [0, 1). For tests; default `Math.random`. */
  random?: (() => number) | undefined;
}

/** The client of the verified service: grounded answers, extraction, evaluation and claim checks. */
export class Verified {
  readonly baseURL: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly #apiKey: string | undefined;
  readonly #fetch: FetchLike;
  readonly #sleep: Sleep;
  readonly #random: () => number;

  /** The OpenAI-shaped `chat.completions.create` (`POST /v1/chat/completions`); see docs/drop-in.md. */
  readonly chat: { completions: ChatCompletions };

  constructor(options: VerifiedOptions = {}) {
    this.baseURL = trimTrailing(
      options.baseURL ?? environmentValue("VERIFIED_BASE_URL") ?? DEFAULT_BASE_URL,
      "/",
    );
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.#apiKey = options.apiKey ?? environmentValue("VERIFIED_API_KEY");
    // Called unbound: browsers throw "Illegal invocation" when fetch runs with another `this`.
    this.#fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.#sleep = options.sleep ?? sleep;
    this.#random = options.random ?? Math.random;
    const create = (params: ChatCompletionParams, requestOptions?: RequestOptions) =>
      params.stream === true
        ? this.#stream<ChatCompletionChunk, VerificationReport | undefined>(
            API_PATHS.chatCompletions,
            params,
            toChatEvent,
            requestOptions,
            {
              resultOf: (chunk) =>
                chunk.verification === undefined ? undefined : { result: chunk.verification },
              atEnd: () => undefined,
            },
          )
        : (this.#post(API_PATHS.chatCompletions, params, requestOptions) as Promise<ChatCompletion>);
    this.chat = { completions: { create: create as ChatCompletions["create"] } };
  }

  /** Generates an answer whose every claim is checked against `sources` (`POST /v1/verified`). */
  create(params: CreateParams, options?: RequestOptions): Promise<CreateResult> {
    return this.#post(OPERATION_PATHS.create, params, options) as Promise<CreateResult>;
  }

  /** Extracts each field of `schema` as a verbatim substring of a source, or null (`POST /v1/verified/extract`). */
  extract<S extends ExtractSchema>(
    params: ExtractParams<S>,
    options?: RequestOptions,
  ): Promise<ExtractResult<S>> {
    return this.#post(OPERATION_PATHS.extract, params, options) as Promise<ExtractResult<S>>;
  }

  /** Scores up to 200 cases in one request (`POST /v1/verified/eval`); use `evalAll` for more. */
  eval(params: EvalParams, options?: RequestOptions): Promise<EvalResult> {
    return this.#post(OPERATION_PATHS.eval, params, options) as Promise<EvalResult>;
  }

  /**
   * `create`, streamed: each claim as soon as the model closes it and the service has checked it, then the
   * result (`finalResult()`). See docs/streaming.md for what the events promise.
   */
  stream(params: CreateParams, options?: RequestOptions): VerifiedStream<CreateStreamEvent, CreateResult> {
    return this.#stream(OPERATION_PATHS.create, params, toCreateEvent, options);
  }

  /** `eval`, streamed: a `case` event as each case finishes, then the result (`finalResult()`). */
  evalStream(params: EvalParams, options?: RequestOptions): VerifiedStream<EvalStreamEvent, EvalResult> {
    return this.#stream(OPERATION_PATHS.eval, params, toEvalEvent, options);
  }

  /**
   * Checks claims you already have (`claims`), or a plain answer with citation markers (`answer`), against
   * `sources`, with no model (`POST /v1/verified/check`).
   */
  check(params: CheckParams, options?: RequestOptions): Promise<CheckResult> {
    return this.#post(OPERATION_PATHS.check, params, options) as Promise<CheckResult>;
  }

  /** The model ids and patterns the service accepts, and the gateway each goes to (`GET /v1/models`). */
  listModels(options?: RequestOptions): Promise<ModelList> {
    return this.#post(API_PATHS.models, undefined, options) as Promise<ModelList>;
  }

  /** Scores a dataset of any size: pages of 200, a few in flight, merged exactly. */
  evalAll(params: EvalAllParams, options?: RequestOptions): Promise<EvalAllResult> {
    // With a progress callback, pages are streamed so progress moves case by case, not page by page.
    const streamed = params.onProgress !== undefined;
    return evalAll(
      async (page, { signal, onCase }) => {
        if (!streamed) return this.eval(page, { ...options, signal });
        const stream = this.evalStream(page, { ...options, signal });
        for await (const event of stream) if (event.type === "case") onCase();
        return stream.finalResult();
      },
      params,
      options?.signal,
    );
  }

  #stream<Event, Result>(
    path: string,
    params: object,
    toEvent: (name: string, data: unknown) => Event | undefined,
    options: RequestOptions = {},
    settle?: StreamSettlement<Event, Result>,
  ): VerifiedStream<Event, Result> {
    const transport: Transport = {
      baseURL: this.baseURL,
      apiKey: this.#apiKey,
      fetch: this.#fetch,
      timeoutMs: options.timeout ?? this.timeout,
    };
    const policy = {
      maxRetries: options.maxRetries ?? this.maxRetries,
      sleep: this.#sleep,
      random: this.#random,
    };
    const body = toWire(params) as Record<string, unknown>;
    return openStream(transport, policy, path, body, toEvent, options.signal, settle);
  }

  /** POSTs `params` to `path`, or GETs `path` when `params` is undefined. */
  async #post(path: string, params: object | undefined, options: RequestOptions = {}): Promise<unknown> {
    const transport: Transport = {
      baseURL: this.baseURL,
      apiKey: this.#apiKey,
      fetch: this.#fetch,
      timeoutMs: options.timeout ?? this.timeout,
    };
    const policy = {
      maxRetries: options.maxRetries ?? this.maxRetries,
      sleep: this.#sleep,
      random: this.#random,
    };
    const body = params === undefined ? undefined : toWire(params);
    const wireResult = await withRetries(
      () => postJson(transport, path, body, options.signal),
      policy,
      options.signal,
    );
    return fromWire(wireResult);
  }
}

/** `VERIFIED_API_KEY` where a Node-style `process.env` exists (Node, Bun, Deno's Node compatibility). */
/** A non-empty `VERIFIED_*` variable where `process.env` exists (Node, Bun, Deno with --allow-env), else undefined. */
function environmentValue(name: "VERIFIED_API_KEY" | "VERIFIED_BASE_URL"): string | undefined {
  try {
    const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
      ?.env;
    const value = environment?.[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  } catch {
    // Deno without --allow-env throws on reading the environment; then there is no default.
    return undefined;
  }
}
