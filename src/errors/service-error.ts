import { type ErrorBody, type ErrorType, errorRegistry } from "./error-registry.js";

/** Extra details an error may carry. */
export interface ServiceErrorDetails {
  param?: string | undefined;
  /** Seconds, forwarded as `Retry-After` on 429. */
  retryAfterSeconds?: number | undefined;
  /** For `ungrounded`: the claims that failed. */
  unsupported?: { claim: string; reason: string }[] | undefined;
  /**
   * For `ungrounded` of a prose answer: the model's answer, which the entries' `answer_range`s count into, so
   * the server can give them in the request's `offsets` unit. Never on the wire.
   */
  answer?: string | undefined;
  /** For `ungrounded` from `/v1/chat/completions` with `action: "block"`: the verification report. */
  verification?: object | undefined;
}

/** A request-level failure with a stable `type`; the server turns it into the JSON error body. */
export class ServiceError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly details: ServiceErrorDetails;

  constructor(type: ErrorType, message?: string, details: ServiceErrorDetails = {}) {
    super(message ?? errorRegistry[type].message);
    this.name = "ServiceError";
    this.type = type;
    this.status = errorRegistry[type].status;
    this.details = details;
  }

  /** The wire body: `{error: {type, code, message, param?, unsupported?}}`. */
  toBody(): ErrorBody {
    const error: ErrorBody["error"] = { type: this.type, code: this.type, message: this.message };
    if (this.details.param !== undefined) error.param = this.details.param;
    if (this.details.unsupported !== undefined) error.unsupported = this.details.unsupported;
    if (this.details.verification !== undefined) error.verification = this.details.verification;
    return { error };
  }
}
