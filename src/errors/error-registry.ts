import { MAX_EVAL_CASES } from "../limits.js";

/**
 * Every error `type` the service returns, with its HTTP status and default message. The error
 * reference (docs/errors.md) and the client's error classes are tested against this table.
 */
export const errorRegistry = {
  invalid_request: { status: 400, message: "The request is not valid." },
  no_sources: {
    status: 400,
    message: '"sources" is empty; supply at least one source or set allow_ungrounded.',
  },
  sources_too_large: { status: 400, message: '"sources" text is larger than the budget.' },
  too_many_cases: {
    status: 400,
    message: `"cases" holds more than ${MAX_EVAL_CASES} cases; page larger datasets.`,
  },
  invalid_key: { status: 401, message: "The API key is missing or not valid." },
  insufficient_quota: {
    status: 402,
    message: "The gateway reports exhausted credits or quota for this key.",
  },
  model_not_found: { status: 404, message: "The model is not known." },
  not_found: { status: 404, message: "No such path." },
  method_not_allowed: { status: 405, message: "This path does not accept that method." },
  request_timeout: { status: 408, message: "The request did not arrive in time." },
  payload_too_large: { status: 413, message: "The request body is larger than the limit." },
  unsupported_media_type: { status: 415, message: "Send the body as application/json." },
  ungrounded: { status: 422, message: "No claim of the answer could be grounded in the sources." },
  rate_limited: { status: 429, message: "The gateway rate-limited the call; retry later." },
  internal_error: { status: 500, message: "Something went wrong in the service." },
  extraction_failed: { status: 502, message: "The model's output was unusable after a re-ask." },
  gateway_error: { status: 502, message: "The model gateway failed." },
  shutting_down: {
    status: 503,
    message: "The service is shutting down and could not finish the request; retry it.",
  },
  gateway_timeout: { status: 504, message: "The model gateway did not answer in time." },
} as const satisfies Record<string, { status: number; message: string }>;

/** A stable error code. */
export type ErrorType = keyof typeof errorRegistry;

/** The JSON error body every rejected request gets. */
export interface ErrorBody {
  error: {
    type: ErrorType;
    code: ErrorType;
    message: string;
    param?: string;
    unsupported?: { claim: string; reason: string }[];
    verification?: object;
  };
}
