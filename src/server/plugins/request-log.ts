import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { quoteRequestText } from "../../errors/index.js";

/**
 * One log line per request, with its id, route, status, duration, model, model calls and coverage; never
 * keys or text. A request the caller left is logged too, with status 499.
 */
export function registerRequestLog(app: FastifyInstance): void {
  /** The one log line of a request; a request the caller left gets status 499 (nginx's "client closed"). */
  const logRequest = (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const state = request.verified;
    if (state?.logged) return;
    if (state) state.logged = true;
    const invalidUsage = state?.timedGateway?.invalidUsage() ?? [];
    request.log.info(
      {
        request_id: request.id,
        route: request.routeOptions.url ?? "(unknown)",
        method: request.method,
        status,
        duration_ms: Math.round(reply.elapsedTime * 10) / 10,
        // Every request string in a log line is cut to 200 characters: a 1 MB model id is not logged whole.
        model: state?.model === undefined ? undefined : quoteRequestText(state.model),
        // A request that failed after some model calls still reports them.
        model_calls: state?.modelCalls ?? state?.timedGateway?.modelCalls(),
        coverage: state?.coverage,
        // Usage counts the gateway sent that were not non-negative safe integers (left out of `usage`).
        invalid_usage: invalidUsage.length > 0 ? invalidUsage : undefined,
      },
      "request",
    );
  };
  app.addHook("onRequest", async (request, reply) => {
    // Fastify runs no onResponse for a response the caller closed before it finished, and its
    // onRequestAbort only fires while the body is still arriving; without this the line would be missing.
    reply.raw.once("close", () => {
      if (!reply.raw.writableFinished) logRequest(request, reply, 499);
    });
  });
  app.addHook("onResponse", async (request, reply) => logRequest(request, reply, reply.statusCode));
}
