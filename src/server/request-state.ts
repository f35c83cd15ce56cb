import type { FastifyReply, FastifyRequest } from "fastify";
import { ServiceError } from "../errors/index.js";
import type { ModelBackend } from "../models/index.js";
import type { OperationContext } from "../service/index.js";
import type { ServerConfig } from "./config.js";
import { createTimedGateway, type TimedGateway, traceHeadersOf } from "./plugins/index.js";

/** Per-request facts for the log line and the Server-Timing header; never keys or text. */
export interface RequestState {
  gatewayKey: string | undefined;
  /** An open service took the request without a key; only models that need no key may serve it. */
  keyless: boolean;
  model: string | undefined;
  modelCalls: number | undefined;
  coverage: number | undefined;
  timedGateway: TimedGateway | undefined;
  /** Aborts the operation's gateway calls (and local work) with `reason`; set once the operation starts. */
  abortOperation: ((reason: ServiceError) => void) | undefined;
  /** The operation's signal (aborted when the caller leaves), once the operation starts. */
  abortSignal: AbortSignal | undefined;
  /** Set once the request's log line is written, so it is written once. */
  logged: boolean;
}

declare module "fastify" {
  interface FastifyRequest {
    verified: RequestState;
  }
}

/** A fresh state for one request. */
export function newRequestState(): RequestState {
  return {
    gatewayKey: undefined,
    keyless: false,
    model: undefined,
    modelCalls: undefined,
    coverage: undefined,
    timedGateway: undefined,
    abortOperation: undefined,
    abortSignal: undefined,
    logged: false,
  };
}

/**
 * The signal of one request's operation (`request.verified.abortSignal`): aborted when the caller leaves
 * before its answer is finished (also when it already left, before the handler asked), or at shutdown's
 * deadline (see in-flight-requests.ts).
 */
export function callerSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  request.verified.abortOperation = (reason) => controller.abort(reason);
  request.verified.abortSignal = controller.signal;
  const left = () => {
    // A response closed before it finished means the caller went away: stop the work.
    if (!reply.raw.writableFinished)
      controller.abort(new ServiceError("gateway_error", "The caller disconnected."));
  };
  if (reply.raw.destroyed) left();
  else reply.raw.once("close", left);
  return controller.signal;
}

/** Builds the operation context of one request: timed gateway, key, and an abort when the caller leaves. */
export function operationContext(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { gateway: ModelBackend; config: ServerConfig; now: () => number },
): OperationContext {
  const timedGateway = createTimedGateway(deps.gateway, deps.now);
  request.verified.timedGateway = timedGateway;
  const signal = callerSignal(request, reply);
  const traceHeaders = traceHeadersOf(request.headers);
  const gateway: ModelBackend =
    Object.keys(traceHeaders).length === 0
      ? timedGateway
      : {
          generate: (call) =>
            timedGateway.generate({ ...call, headers: { ...call.headers, ...traceHeaders } }),
          relay: (call) => timedGateway.relay({ ...call, headers: { ...call.headers, ...traceHeaders } }),
        };
  return {
    gateway,
    apiKey: request.verified.gatewayKey,
    signal,
    sourcesBudget: deps.config.sourcesBudget,
  };
}
