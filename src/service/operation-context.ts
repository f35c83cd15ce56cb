import type { ModelBackend } from "../models/index.js";

/** What every operation needs from its caller (the HTTP route or the in-process CLI). */
export interface OperationContext {
  gateway: ModelBackend;
  /** Bearer key for the gateway: the caller's own, or the configured gateway key. */
  apiKey: string | undefined;
  /** Aborted when the caller goes away. */
  signal?: AbortSignal | undefined;
  /** Total characters of source text one request (or one eval case) may carry. */
  sourcesBudget: number;
}
