import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";

// Request ids and W3C trace context: every answer and log line carries an `x-request-id` (the caller's,
// when it sent a usable one, else a new one), and a caller's `traceparent`/`tracestate` go on to the gateway.

/** The header that carries the request id, both ways. */
export const requestIdHeader = "x-request-id";

/** The longest caller-chosen request id the service echoes; a longer one is replaced. */
export const maxRequestIdLength = 128;

/** Printable ASCII without spaces: safe in a header, a log line and a JSON body alike. */
const requestIdPattern = /^[\x21-\x7e]+$/;

/** W3C Trace Context `traceparent`: version-traceid-parentid-flags, lower-case hex. */
const traceparentPattern = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The longest `tracestate` forwarded (the W3C limit is 32 members of at most 256 characters each). */
const maxTracestateLength = 512;

/** The caller's request id when usable, else a new `req_…` id. Fastify's `genReqId`. */
export function requestIdOf(request: IncomingMessage): string {
  const header = request.headers[requestIdHeader];
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && value.length <= maxRequestIdLength && requestIdPattern.test(value)) return value;
  return `req_${randomBytes(12).toString("base64url")}`;
}

/**
 * A valid `traceparent`, or undefined. Version `ff`, an all-zero trace id or parent id, and (for version 00)
 * anything after the flags make it invalid, as the W3C spec says; a later version may append fields.
 */
export function validTraceparent(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 512) return undefined;
  const match = traceparentPattern.exec(value.trim());
  if (match === null) return undefined;
  const [, version, traceId, parentId, , rest] = match;
  if (version === "ff" || /^0+$/.test(traceId ?? "") || /^0+$/.test(parentId ?? "")) return undefined;
  if (version === "00" && rest !== undefined) return undefined;
  return value.trim();
}

/** The trace headers to send to the gateway for one request: `traceparent` and, with it, `tracestate`. */
export function traceHeadersOf(headers: IncomingMessage["headers"]): Record<string, string> {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const traceparent = validTraceparent(first(headers.traceparent));
  if (traceparent === undefined) return {};
  // Several tracestate headers are one list, joined with commas.
  const raw = headers.tracestate;
  const tracestate = Array.isArray(raw) ? raw.join(",") : raw;
  return tracestate !== undefined &&
    tracestate.length <= maxTracestateLength &&
    /^[\x20-\x7e]*$/.test(tracestate) &&
    tracestate.trim() !== ""
    ? { traceparent, tracestate: tracestate.trim() }
    : { traceparent };
}

/** Anything with hooks, as Fastify's instance has them; kept narrow so this module needs no Fastify types. */
interface HookHost {
  addHook(
    name: "preSerialization",
    hook: (request: { id: string }, reply: unknown, payload: unknown) => Promise<unknown>,
  ): unknown;
  addHook(
    name: "onSend",
    hook: (
      request: { id: string },
      reply: { header(name: string, value: string): unknown },
      payload: unknown,
    ) => Promise<unknown>,
  ): unknown;
}

/** Echoes the request id on every answer and puts it into every error body as `error.request_id`. */
export function registerRequestIds(app: HookHost): void {
  app.addHook("preSerialization", async (request, _reply, payload) => withRequestId(payload, request.id));
  app.addHook("onSend", async (request, reply, payload) => {
    reply.header(requestIdHeader, request.id);
    return payload;
  });
}

/**
 * An error body `{error: {…}}` with `request_id` added; any other payload as it is. For the hook above, and
 * for the answers that never pass it: a stream's `error` event, and the 400 of a path Fastify cannot decode.
 */
export function withRequestId<T>(payload: T, requestId: string): T {
  if (!isErrorBody(payload)) return payload;
  return { ...payload, error: { ...payload.error, request_id: requestId } };
}

function isErrorBody(payload: unknown): payload is { error: Record<string, unknown> } {
  if (typeof payload !== "object" || payload === null) return false;
  const error = (payload as { error?: unknown }).error;
  return (
    typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string"
  );
}
