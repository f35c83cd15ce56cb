import type {
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

/** The three operations the page runs, on the page's own origin. */
export interface Api {
  create(body: CreateRequest, signal?: AbortSignal): Promise<CreateResult>;
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

  async function post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
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
    extract: (body, signal) => post<ExtractResult>("/v1/verified/extract", body, signal),
    evaluate: (body, signal) => post<EvalResult>("/v1/verified/eval", body, signal),
  };
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
