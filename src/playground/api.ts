import { readEventStream } from "../client/read-event-stream.js";
import type {
  Citation,
  CreateRequest,
  CreateResult,
  ErrorBody,
  EvalRequest,
  EvalResult,
  ExtractRequest,
  ExtractResult,
  UnsupportedClaim,
} from "./wire-types.js";

/** A failed call: the service's error body, or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly param: string | undefined;
  /** For `ungrounded`: the claims that could not be grounded. */
  readonly unsupported: UnsupportedClaim[];

  constructor(
    status: number,
    type: string,
    message: string,
    param?: string,
    unsupported: UnsupportedClaim[] = [],
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.type = type;
    this.param = param;
    this.unsupported = unsupported;
  }
}

/** What a streamed create reports before its result. */
export type CreateProgress =
  | { event: "claim"; data: Citation }
  | { event: "unsupported"; data: UnsupportedClaim }
  | { event: "attempt"; data: { attempt: number } };

/** The three operations the page runs, on the page's own origin. */
export interface Api {
  create(body: CreateRequest, signal?: AbortSignal): Promise<CreateResult>;
  /** `create` with `"stream": true`: each checked claim goes to `onProgress`; resolves with `done`. */
  createStream(
    body: CreateRequest,
    onProgress: (progress: CreateProgress) => void,
    signal?: AbortSignal,
  ): Promise<CreateResult>;
  extract(body: ExtractRequest, signal?: AbortSignal): Promise<ExtractResult>;
  evaluate(body: EvalRequest, signal?: AbortSignal): Promise<EvalResult>;
}

/** Settings for {@link createApi}; `fetch` and `baseUrl` are there for tests. */
export interface ApiOptions {
  /** The bearer key, read at call time so a key typed later is used. */
  getKey: () => string;
  fetch?: typeof fetch;
  baseUrl?: string;
}

/** Builds the API calls: JSON POSTs with `Authorization: Bearer <key>`, errors thrown as {@link ApiError}. */
export function createApi(options: ApiOptions): Api {
  const fetchFunction = options.fetch ?? globalThis.fetch.bind(globalThis);
  const baseUrl = options.baseUrl ?? "";

  async function post<T>(
    path: string,
    body: unknown,
    signal?: AbortSignal,
    onEvent?: (name: string, data: unknown) => void,
  ): Promise<T> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    const key = options.getKey().trim();
    // No key, no header: the service answers invalid_key, which the page explains.
    if (key !== "") headers.authorization = `Bearer ${key}`;
    let response: Response;
    try {
      response = await fetchFunction(`${baseUrl}${path}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ApiError(0, "network_error", `Could not reach the service (${reason}). Is it still running?`);
    }
    const contentType = response.headers.get("content-type") ?? "";
    if (
      response.ok &&
      onEvent !== undefined &&
      contentType.startsWith("text/event-stream") &&
      response.body
    ) {
      return readStreamed<T>(response.body, onEvent, response.status);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.ok && parsed !== undefined) return parsed as T;
    if (isErrorBody(parsed)) {
      const { type, message, param, unsupported } = parsed.error;
      throw new ApiError(response.status, type, message, param, unsupported ?? []);
    }
    const excerpt = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    throw new ApiError(
      response.status,
      "unexpected_response",
      `The service answered HTTP ${response.status} with ${excerpt === "" ? "an empty body" : `"${excerpt}"`}.`,
    );
  }

  return {
    create: (body, signal) => post<CreateResult>("/v1/verified", body, signal),
    createStream: (body, onProgress, signal) =>
      post<CreateResult>("/v1/verified", { ...body, stream: true }, signal, (event, data) =>
        onProgress({ event, data } as CreateProgress),
      ),
    extract: (body, signal) => post<ExtractResult>("/v1/verified/extract", body, signal),
    evaluate: (body, signal) => post<EvalResult>("/v1/verified/eval", body, signal),
  };
}

/** Reads an event stream: progress events go to `onEvent`; `done` resolves, `error` throws its ApiError. */
async function readStreamed<T>(
  body: ReadableStream<Uint8Array>,
  onEvent: (name: string, data: unknown) => void,
  status: number,
): Promise<T> {
  for await (const message of readEventStream(body)) {
    const data: unknown = JSON.parse(message.data);
    if (message.event === "done") return data as T;
    if (message.event === "error" && isErrorBody(data)) {
      const { type, message: text, param, unsupported } = data.error;
      throw new ApiError(status, type, text, param, unsupported ?? []);
    }
    onEvent(message.event, data);
  }
  throw new ApiError(status, "unexpected_response", "The service's stream ended before its result.");
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = value.error;
  return (
    typeof error === "object" &&
    error !== null &&
    "type" in error &&
    typeof error.type === "string" &&
    "message" in error &&
    typeof error.message === "string"
  );
}
