import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { BodyBytes } from "../body-bytes.js";
import type { GatewayTransport, LimitedBody, TransportResponse } from "./transport.js";

/**
 * The gateway transport to `url` over node:http(s), with keep-alive connections. It is the default rather than
 * `fetch` because a call costs several times less CPU: on the 2-core benchmark machine fetch alone (its
 * Request/Response objects, web streams and abort signals) held the service under 1,500 creates/s
 * (`npm run bench -- service-throughput`). Redirects are never followed, as node:http does not.
 */
export function createHttpTransport(url: string): GatewayTransport {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  // Like undici, an idle connection is dropped after 4 s (or 1 s before the server's Keep-Alive timeout), so a
  // call never goes out on a connection the server is closing at its usual 5 s.
  const options = { keepAlive: true, timeout: 4_000 };
  const agent = secure ? new HttpsAgent(options) : new HttpAgent(options);
  const send = secure ? httpsRequest : httpRequest;

  return ({ headers, body, signal }) =>
    new Promise<TransportResponse>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const outgoing = send(target, {
        method: "POST",
        agent,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      });
      // Aborting destroys the request, which closes the connection and breaks any body being read.
      const onAbort = () => {
        reject(signal.reason);
        outgoing.destroy();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const release = () => signal.removeEventListener("abort", onAbort);
      // Kept for the request's whole life: a socket error after the answer began must not go unhandled.
      outgoing.on("error", (error) => {
        release();
        reject(error);
      });
      outgoing.once("response", (response) => resolve(answer(response, release)));
      outgoing.end(body);
    });
}

function answer(response: IncomingMessage, release: () => void): TransportResponse {
  let headers: Headers | undefined;
  return {
    status: response.statusCode ?? 0,
    declaredLength: Number(response.headers["content-length"] ?? Number.NaN),
    get headers() {
      if (headers === undefined) {
        headers = new Headers();
        const raw = response.rawHeaders;
        for (let index = 0; index + 1 < raw.length; index += 2) {
          headers.append(raw[index] as string, raw[index + 1] as string);
        }
      }
      return headers;
    },
    readBody: (maxBytes) => readLimited(response, maxBytes).finally(release),
    chunks: () => responseChunks(response, release),
    discard() {
      response.destroy();
      release();
      return Promise.resolve();
    },
  };
}

function readLimited(response: IncomingMessage, maxBytes: number): Promise<LimitedBody> {
  return new Promise((resolve, reject) => {
    // A body with a Content-Length within the limit is copied into place as it arrives (BodyBytes).
    const body = new BodyBytes(Number(response.headers["content-length"]), maxBytes);
    response.on("data", (chunk: Buffer) => {
      const bytesRead = body.received + chunk.length;
      if (bytesRead > maxBytes) {
        // Destroying the response closes the connection: nothing beyond the limit is read or kept.
        response.destroy();
        resolve({ ok: false, bytesRead });
        return;
      }
      body.add(chunk);
    });
    // Node's parser ends a body with a Content-Length after exactly that many bytes.
    response.on("end", () => resolve({ ok: true, bytes: body.bytes() }));
    // A connection closed mid-body surfaces here as Node's `aborted` (ECONNRESET) error.
    response.on("error", reject);
    response.on("close", () => {
      if (!response.complete) reject(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
    });
  });
}

async function* responseChunks(response: IncomingMessage, release: () => void): AsyncGenerator<Uint8Array> {
  try {
    // Async iteration throws when the connection closes mid-body, and destroys the response when the caller
    // leaves the loop early.
    for await (const chunk of response) yield chunk as Buffer;
    if (!response.complete) throw Object.assign(new Error("aborted"), { code: "ECONNRESET" });
  } finally {
    if (!response.complete) response.destroy();
    release();
  }
}
