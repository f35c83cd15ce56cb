import type { LimitedBody } from "./body-limit.js";

/** A gateway's answer once its status line and headers have arrived; the caller reads or drops the body. */
export interface TransportResponse {
  status: number;
  /** The Content-Length the gateway declared, or NaN. */
  declaredLength: number;
  /** The response headers (only error answers need them, so an implementation may build them lazily). */
  readonly headers: Headers;
  /**
   * Reads the body as UTF-8; past `maxBytes` it stops, closes the connection and keeps nothing more.
   * Rejects when the connection breaks (or the call's signal aborts) mid-body.
   */
  readBody(maxBytes: number): Promise<LimitedBody>;
  /**
   * The body's bytes as they arrive, for a streamed answer. Iteration throws when the connection breaks (or
   * the call's signal aborts) mid-body; leaving the loop early closes the connection.
   */
  chunks(): AsyncIterable<Uint8Array>;
  /** Drops the body unread and closes the connection. */
  discard(): Promise<void>;
}

/**
 * Sends one POST to the gateway's fixed URL and resolves once the answer's headers arrive. Redirects are never
 * followed. Rejects with the network error when no answer comes (refused, reset), and once `signal` aborts,
 * with any error: the caller reports the signal's reason then.
 */
export type GatewayTransport = (request: {
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}) => Promise<TransportResponse>;
