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
      async discard() {
        await response.body?.cancel().catch(() => undefined);
      },
    };
  };
}
