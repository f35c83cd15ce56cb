import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ServiceError } from "../errors/index.js";
import { MAX_SHUTDOWN_GRACE_MS } from "../limits.js";

/** The requests an app is answering, so a shutdown can end the ones still running at its deadline. */
export interface InFlightRequests {
  track(request: FastifyRequest, reply: FastifyReply): void;
  /**
   * Ends every request still unanswered with 503 `shutting_down`: a running operation is aborted (its gateway
   * calls with it) and answers through the error handler; a request whose body is still arriving is answered
   * at once and its connection closed. Returns how many requests it ended.
   */
  abortAll(): number;
  /** Makes every request in flight close its connection once answered, so a drain never waits on keep-alive. */
  closeConnectionsAfterAnswer(): void;
  /** Follows the connections of `server`, so a shutdown can find those that carry no request. */
  watchConnections(server: Server): void;
  /**
   * Destroys every connection of the watched server that carries no request Fastify has seen (headers still
   * arriving, a request line only, or idle): nothing is owed on it. Returns how many it destroyed.
   */
  destroyConnectionsWithoutRequest(): number;
  /** Marks the app as shutting down: from now on `/readyz` answers 503, so load balancers stop routing to it. */
  beginShutdown(): void;
  /** True once a shutdown began (by `beginShutdown` or `app.close()`). */
  readonly shuttingDown: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    inFlight: InFlightRequests;
  }
}

/** A registry of unanswered requests; each leaves it when its response finishes or its connection closes. */
export function createInFlightRequests(): InFlightRequests {
  const open = new Set<{ request: FastifyRequest; reply: FastifyReply }>();
  const connections = new Set<Socket>();
  let shuttingDown = false;
  return {
    get shuttingDown() {
      return shuttingDown;
    },
    beginShutdown() {
      shuttingDown = true;
    },
    track(request, reply) {
      const entry = { request, reply };
      open.add(entry);
      reply.raw.once("close", () => open.delete(entry));
    },
    watchConnections(server) {
      server.on("connection", (socket: Socket) => {
        connections.add(socket);
        socket.once("close", () => connections.delete(socket));
      });
    },
    destroyConnectionsWithoutRequest() {
      const withRequest = new Set<unknown>();
      for (const { request } of open) withRequest.add(request.raw.socket);
      let destroyed = 0;
      for (const socket of connections) {
        if (withRequest.has(socket)) continue;
        socket.destroy();
        destroyed += 1;
      }
      return destroyed;
    },
    closeConnectionsAfterAnswer() {
      for (const { reply } of open) {
        // Node then sends `Connection: close` and ends the socket after the response.
        if (!reply.raw.headersSent) reply.raw.shouldKeepAlive = false;
      }
    },
    abortAll() {
      let ended = 0;
      for (const { request, reply } of open) {
        if (reply.raw.writableEnded) continue;
        ended += 1;
        const error = new ServiceError(
          "shutting_down",
          "The service is shutting down and this request was still running at the shutdown deadline; retry it.",
        );
        const abortOperation = request.verified?.abortOperation;
        if (abortOperation !== undefined) {
          abortOperation(error);
          continue;
        }
        // No operation yet (the body is still arriving): answer now, then drop the connection.
        const raw = reply.raw;
        if (!raw.headersSent) {
          const body = JSON.stringify(error.toBody());
          raw.writeHead(error.status, {
            "content-type": "application/json; charset=utf-8",
            "content-length": Buffer.byteLength(body),
            connection: "close",
          });
          raw.end(body, () => raw.socket?.destroy());
        } else {
          raw.socket?.destroy();
        }
      }
      return ended;
    },
  };
}

/**
 * Closes `app` gracefully: it stops accepting at once and lets requests in flight finish; whatever still runs
 * after `timeoutMs` is ended with 503 `shutting_down` (gateway calls aborted), a connection that carries no
 * request (headers trickled byte by byte) is destroyed then, and any connection left after a further
 * `graceMs` (at most MAX_SHUTDOWN_GRACE_MS by default) is destroyed, so the returned promise settles within
 * `graceMs` of the deadline whatever clients do.
 */
export async function closeGracefully(
  app: FastifyInstance,
  timeoutMs: number,
  graceMs = Math.min(MAX_SHUTDOWN_GRACE_MS, Math.max(100, timeoutMs)),
  /** Aborted, it brings the deadline forward to now (a second Ctrl-C). */
  hurry?: AbortSignal,
): Promise<void> {
  let deadline: NodeJS.Timeout | undefined;
  let grace: NodeJS.Timeout | undefined;
  app.inFlight.closeConnectionsAfterAnswer();
  const closed = app.close();
  const endRequests = () => {
    if (grace !== undefined) return;
    clearTimeout(deadline);
    deadline = undefined;
    const ended = app.inFlight.abortAll();
    const dropped = app.inFlight.destroyConnectionsWithoutRequest();
    if (ended + dropped > 0) {
      app.log.warn(
        { timeout_ms: timeoutMs, requests_ended: ended, connections_dropped: dropped },
        "shutdown deadline: requests ended",
      );
    }
    grace = setTimeout(() => app.server.closeAllConnections(), graceMs);
  };
  deadline = setTimeout(endRequests, timeoutMs);
  if (hurry?.aborted) endRequests();
  hurry?.addEventListener("abort", endRequests, { once: true });
  try {
    await closed;
  } finally {
    hurry?.removeEventListener("abort", endRequests);
    clearTimeout(deadline);
    clearTimeout(grace);
  }
}
