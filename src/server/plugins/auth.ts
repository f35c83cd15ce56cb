import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { API_PATHS } from "../../api-paths.js";
import { quoteRequestText, ServiceError } from "../../errors/index.js";
import { type ModelBackend, modelNeedsCallerKey } from "../../models/index.js";
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
 * without (an open service), the caller's key is passed through to the gateway, and a request with no
 * Authorization header is accepted for the models that need no key (the built-in local model, or no model
 * at all; the model backend decides) and refused with `invalid_key` once its body names a model that does.
 */
export function registerAuth(
  app: FastifyInstance,
  deps: { config: ServerConfig; gateway: ModelBackend },
  guardedPaths: readonly string[],
): void {
  const { config, gateway } = deps;
  const guarded = new Set(guardedPaths);
  const checkKey = config.apiKeys ? createKeyChecker(config.apiKeys) : undefined;
  const authenticate = async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (checkKey) {
      const key = readBearerKey(header);
      if (!checkKey(key)) throw new ServiceError("invalid_key", "The API key is not valid for this service.");
      request.verified.gatewayKey = config.gatewayKey;
    } else if (header === undefined || header === "") {
      request.verified.keyless = true;
    } else {
      request.verified.gatewayKey = readBearerKey(header);
    }
  };
  // After validation, so the body's `model` is known and well-formed.
  const requireKeyForGatewayModel = async (request: FastifyRequest) => {
    if (!request.verified.keyless) return;
    const model = (request.body as { model?: unknown } | undefined)?.model;
    if (typeof model === "string" && modelNeedsCallerKey(gateway, model)) {
      throw new ServiceError(
        "invalid_key",
        `Model "${quoteRequestText(model)}" is called through the model gateway with your API key: send it as "Authorization: Bearer <key>". Model "local" needs no key.`,
      );
    }
  };

  app.addHook("onRoute", (route) => {
    if (guarded.has(route.url) || (checkKey && route.url === API_PATHS.openapi)) {
      const existing = route.onRequest ? [route.onRequest].flat() : [];
      route.onRequest = [...existing, authenticate];
    }
    if (guarded.has(route.url) && !checkKey) {
      const existing = route.preHandler ? [route.preHandler].flat() : [];
      route.preHandler = [requireKeyForGatewayModel, ...existing];
    }
  });
}
