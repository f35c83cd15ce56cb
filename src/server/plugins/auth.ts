import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ServiceError } from "../../errors/index.js";
import type { ServerConfig } from "../config.js";

function digest(key: string): Buffer {
  return createHash("sha256").update(key).digest();
}

/** Compares keys in constant time: hashing first makes every comparison the same length. */
export function createKeyChecker(allowed: readonly string[]): (key: string) => boolean {
  const digests = allowed.map(digest);
  return (key) => {
    const candidate = digest(key);
    let found = false;
    // Visit every key so the time does not depend on which one matched.
    for (const allowedDigest of digests) found = timingSafeEqual(candidate, allowedDigest) || found;
    return found;
  };
}

/** Reads `Authorization: Bearer <key>`; throws `invalid_key` when it is missing or malformed. */
export function readBearerKey(header: string | undefined): string {
  if (header === undefined || header === "") {
    throw new ServiceError("invalid_key", 'Send your API key as "Authorization: Bearer <key>".');
  }
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match?.[1]) {
    throw new ServiceError("invalid_key", 'The Authorization header must read "Bearer <key>".');
  }
  return match[1];
}

/**
 * Guards the operations (and `/openapi.json` when a key list is set) with the bearer key. With
 * `config.apiKeys` the caller's key must be listed and the gateway is called with `config.gatewayKey`;
 * without, the caller's key is passed through to the gateway.
 */
export function registerAuth(
  app: FastifyInstance,
  config: ServerConfig,
  guardedPaths: readonly string[],
): void {
  const guarded = new Set(guardedPaths);
  const checkKey = config.apiKeys ? createKeyChecker(config.apiKeys) : undefined;
  const authenticate = async (request: FastifyRequest) => {
    const key = readBearerKey(request.headers.authorization);
    if (checkKey) {
      if (!checkKey(key)) throw new ServiceError("invalid_key", "The API key is not valid for this service.");
      request.verified.gatewayKey = config.gatewayKey;
    } else {
      request.verified.gatewayKey = key;
    }
  };

  app.addHook("onRoute", (route) => {
    if (guarded.has(route.url) || (checkKey && route.url === "/openapi.json")) {
      const existing = route.onRequest ? [route.onRequest].flat() : [];
      route.onRequest = [...existing, authenticate];
    }
  });
}
