import type { FastifyInstance } from "fastify";
import type { FetchLike } from "../client/index.js";

/**
 * A `fetch` that hands each request to `app.inject`: the client speaks the same HTTP contract to an app in
 * this process, with no port. The caller's signal aborts the injected request.
 */
export function injectFetch(app: FastifyInstance): FetchLike {
  return async (url, init) => {
    const { pathname, search } = new URL(url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const response = await app.inject({
      method: (init.method ?? "GET") as "GET" | "POST",
      url: `${pathname}${search}`,
      headers,
      ...(typeof init.body === "string" ? { payload: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of [value].flat()) responseHeaders.append(name, String(item));
    }
    return new Response(response.rawPayload.length === 0 ? null : new Uint8Array(response.rawPayload), {
      status: response.statusCode,
      headers: responseHeaders,
    });
  };
}
