import { readBodyWithLimit } from "./body-limit.js";
import type { GatewayTransport } from "./transport.js";

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
