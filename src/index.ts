// The package's library face: the pure verification core, and the service for those who embed it.
import type { FastifyInstance } from "fastify";
import type { CreateAppOptions } from "./server/index.js";

export {
  type AnswerCheckOptions,
  type AnswerCitation,
  type AnswerMiss,
  type AnswerReason,
  type AnswerResult,
  type AnswerUnsupported,
  aggregateCases,
  type CandidateClaim,
  type CandidateField,
  type CaseScore,
  type CheckNumbers,
  type Citation,
  type ClaimCheckOptions,
  type ClaimsResult,
  checkAnswer,
  type EvalAggregate,
  type FieldResult,
  type FieldsResult,
  findQuote,
  type MatchMode,
  type PartialPolicy,
  type Range,
  type Source,
  type UnsupportedClaim,
  type UnsupportedReason,
  verifyClaims,
  verifyFields,
} from "./core/index.js";
export * from "./limits.js";
export { createModelBackend, type ModelBackendSettings } from "./models/index.js";
// Straight from the config module, not the server's face: the face loads Fastify, which `createApp` defers.
export { type AppDeps, defaultServerConfig, type ServerConfig } from "./server/config.js";
export type { CreateAppOptions } from "./server/index.js";

/**
 * Builds the HTTP service as a Fastify instance (routes, validation, auth, errors, logs, OpenAPI) to
 * listen on or to register inside your own app. Fastify is loaded on the first call, so a program that
 * only checks claims never loads the server.
 */
export async function createApp(options: CreateAppOptions): Promise<FastifyInstance> {
  const server = await import("./server/index.js");
  return server.createApp(options);
}
