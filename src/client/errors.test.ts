import { describe, expect, it } from "vitest";
import { type ErrorType, errorRegistry } from "../errors/error-registry.js";
import {
  AuthenticationError,
  ConnectionError,
  errorFromResponse,
  GatewayError,
  GatewayTimeoutError,
  InsufficientQuotaError,
  InternalServerError,
  InvalidRequestError,
  NoSourcesError,
  NotFoundError,
  parseRetryAfter,
  RateLimitError,
  TimeoutError,
  UngroundedError,
  UserAbortError,
  VerifiedError,
} from "./errors.js";
import * as client from "./index.js";

function respond(status: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    status,
    headers: new Headers(headers),
    bodyText: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/** Every error class the package exports (`VerifiedError` itself aside): what a caller can catch. */
const publicClasses: unknown[] = Object.values(client).filter(
  (value) => typeof value === "function" && value.prototype instanceof VerifiedError,
);

describe("errorFromResponse", () => {
  const registryRows = Object.entries(errorRegistry) as [ErrorType, { status: number; message: string }][];

  it.each(registryRows)(
    "turns the registry's %s into a public subclass carrying the body's fields",
    (type, { status, message }) => {
      const error = errorFromResponse(
        respond(status, { error: { type, code: type, message, param: "model" } }),
      );
      expect(publicClasses).toContain(error.constructor);
      expect(error).toBeInstanceOf(VerifiedError);
      expect(error.constructor).not.toBe(VerifiedError);
      expect({ name: error.name, type: error.type, status: error.status, message: error.message }).toEqual({
        name: error.constructor.name,
        type,
        status,
        message,
      });
      expect(error.param).toBe("model");
    },
  );

  it("gives every registry type its own class, and every public HTTP error class a type", () => {
    const classOf = (type: ErrorType, status: number) =>
      errorFromResponse(respond(status, { error: { type } })).constructor;
    const reached = registryRows.map(([type, { status }]) => classOf(type, status));
    expect(new Set(reached).size).toBe(registryRows.length);
    // The status-0 classes are the client's own (no response arrived); every other public class is what
    // some registry type becomes, so none is dead and none is shared by two types.
    const statusZero: unknown[] = [ConnectionError, TimeoutError, UserAbortError];
    const httpClasses = publicClasses.filter((value) => !statusZero.includes(value));
    expect(new Set(httpClasses)).toEqual(new Set(reached));
  });

  it.each(registryRows)("chooses %s's class by the type, whatever the status", (type, { status }) => {
    const byRegistryStatus = errorFromResponse(respond(status, { error: { type } })).constructor;
    for (const otherStatus of [400, 418, 500, 503]) {
      const error = errorFromResponse(respond(otherStatus, { error: { type } }));
      expect(error.constructor).toBe(byRegistryStatus);
      expect(error.status).toBe(otherStatus);
    }
  });

  it("groups every 400 type under InvalidRequestError and gateway_timeout under GatewayError", () => {
    for (const type of ["no_sources", "sources_too_large", "too_many_cases"] as const) {
      expect(errorFromResponse(respond(400, { error: { type } }))).toBeInstanceOf(InvalidRequestError);
    }
    expect(errorFromResponse(respond(504, { error: { type: "gateway_timeout" } }))).toBeInstanceOf(
      GatewayError,
    );
    expect(errorFromResponse(respond(404, { error: { type: "model_not_found" } }))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it("carries the unsupported claims of a 422", () => {
    const unsupported = [{ claim: "The moon is cheese", reason: "quote_not_found" }];
    const error = errorFromResponse(
      respond(422, { error: { type: "ungrounded", code: "ungrounded", message: "no", unsupported } }),
    );
    expect(error).toBeInstanceOf(UngroundedError);
    expect((error as UngroundedError).unsupported).toEqual(unsupported);
  });

  it("reads Retry-After on a 429", () => {
    const error = errorFromResponse(
      respond(429, { error: { type: "rate_limited" } }, { "retry-after": "7" }),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(7);
    expect(error.headers?.get("retry-after")).toBe("7");
  });

  it("uses `code` when `type` is missing", () => {
    expect(errorFromResponse(respond(400, { error: { code: "no_sources", message: "m" } }))).toBeInstanceOf(
      NoSourcesError,
    );
  });

  it.each([
    [400, InvalidRequestError, "invalid_request"],
    [401, AuthenticationError, "invalid_key"],
    [402, InsufficientQuotaError, "insufficient_quota"],
    [404, NotFoundError, "not_found"],
    [429, RateLimitError, "rate_limited"],
    [500, InternalServerError, "internal_error"],
    [502, GatewayError, "gateway_error"],
    [503, InternalServerError, "internal_error"],
    [504, GatewayTimeoutError, "gateway_timeout"],
    [418, VerifiedError, "unknown_error"],
  ])("falls back on the status for a bare %i", (status, ErrorClass, type) => {
    const error = errorFromResponse(respond(status, "<html>Bad Gateway</html>"));
    expect(error.constructor).toBe(ErrorClass);
    expect(error.type).toBe(type);
    expect(error.status).toBe(status);
    expect(error.message).toBe(
      `The service answered HTTP ${status} without a JSON error body: <html>Bad Gateway</html>`,
    );
  });

  it("keeps an unknown type from a newer server, classed by status", () => {
    const error = errorFromResponse(respond(400, { error: { type: "brand_new", message: "new rule" } }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.type).toBe("brand_new");
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it.each([
    ["3", 3],
    ["0", 0],
    ["1.5", 1.5],
    [" 12 ", 12],
    ["Thu, 01 Jan 2026 00:00:10 GMT", 10],
    ["Wed, 31 Dec 2025 23:59:00 GMT", 0],
    ["soon", undefined],
    ["", undefined],
    [null, undefined],
  ])("%j → %j seconds", (header, seconds) => {
    expect(parseRetryAfter(header, now)).toBe(seconds);
  });
});
