import { BodyBytes } from "../body-bytes.js";

/**
 * A body's bytes read to the end, or refused because it passed the byte limit. The bytes are decoded by the
 * caller (`decodeAnswerSteps`), not where the last of them arrived.
 */
export type LimitedBody = { ok: true; bytes: Buffer } | { ok: false; bytesRead: number };

/**
 * Reads a body's bytes (a fetch response's stream, or the chunks of a relayed answer) and stops as soon as
 * more than `maxBytes` have arrived: the stream is cancelled (which closes the connection) and nothing beyond
 * the limit is kept. Read errors (a reset connection, an abort) are rethrown as they come. O(bytes).
 */
export async function readBodyWithLimit(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null,
  maxBytes: number,
): Promise<LimitedBody> {
  if (body === null) return { ok: true, bytes: Buffer.alloc(0) };
  const kept = new BodyBytes(Number.NaN, maxBytes);
  for await (const value of body instanceof ReadableStream ? readableChunks(body) : body) {
    const bytesRead = kept.received + value.byteLength;
    // Leaving the loop cancels the stream; a failing cancel does not hide the outcome (`readableChunks`).
    if (bytesRead > maxBytes) return { ok: false, bytesRead };
    kept.add(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return { ok: true, bytes: kept.bytes() };
}

/** A gateway's answer once its status line and headers have arrived; the caller reads or drops the body. */
export interface TransportResponse {
  status: number;
  /** The Content-Length the gateway declared, or NaN. */
  declaredLength: number;
  /** The response headers (only error answers need them, so an implementation may build them lazily). */
  readonly headers: Headers;
  /**
   * Reads the body's bytes; past `maxBytes` it stops, closes the connection and keeps nothing more.
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

/** The gateway transport to `url` over a `fetch` implementation (tests pass one to count or fake calls). */
export function fetchTransport(fetchImpl: typeof fetch, url: string): GatewayTransport {
  return async ({ headers, body, signal }) => {
    // Redirects are not followed: the key must go only to the configured gateway.
    const response = await fetchImpl(url, { method: "POST", headers, body, signal, redirect: "manual" });
    return {
      status: response.status,
      declaredLength: Number(response.headers.get("content-length") ?? Number.NaN),
      headers: response.headers,
      readBody: (maxBytes) => readBodyWithLimit(response.body, maxBytes),
      chunks: () => readableChunks(response.body),
      async discard() {
        await response.body?.cancel().catch(() => undefined);
      },
    };
  };
}

async function* readableChunks(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    // A caller that stops early (a refused or finished stream) closes the connection.
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}
