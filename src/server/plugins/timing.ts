import type { FastifyInstance } from "fastify";
import type { ModelBackend, RelayRequest, RelayResponse } from "../../models/index.js";

/** A gateway that measures the wall time during which at least one of its calls was in flight. */
export interface TimedGateway extends ModelBackend {
  relay(request: RelayRequest): Promise<RelayResponse>;
  gatewayMs(): number;
  /** Calls that returned a completion, for the log line of a request that failed after making some. */
  modelCalls(): number;
  /** Usage fields a gateway reported that were not valid counts (see parseChatCompletion), once each. */
  invalidUsage(): string[];
}

/** Wraps a gateway for one request, for the `Server-Timing` split between gateway and service time. */
export function createTimedGateway(gateway: ModelBackend, now: () => number): TimedGateway {
  let inFlight = 0;
  let since = 0;
  let total = 0;
  let calls = 0;
  const invalidUsage = new Set<string>();
  return {
    async generate(request) {
      if (inFlight === 0) since = now();
      inFlight += 1;
      try {
        const result = await gateway.generate(request);
        calls += 1;
        for (const name of result.invalidUsage ?? []) invalidUsage.add(name);
        return result;
      } finally {
        inFlight -= 1;
        if (inFlight === 0) total += now() - since;
      }
    },
    // A relayed call is timed until its answer's headers arrive: its body goes on to the caller as it comes.
    async relay(request) {
      if (inFlight === 0) since = now();
      inFlight += 1;
      try {
        if (gateway.relay === undefined) throw new TypeError("This model backend cannot relay a call.");
        return await gateway.relay(request);
      } finally {
        inFlight -= 1;
        if (inFlight === 0) total += now() - since;
      }
    },
    gatewayMs: () => (inFlight > 0 ? total + now() - since : total),
    modelCalls: () => calls,
    invalidUsage: () => [...invalidUsage],
  };
}

/** Adds `Server-Timing` (gateway, verify, total) to every answer of an operation in `operationPaths`. */
export function registerServerTiming(app: FastifyInstance, operationPaths: readonly string[]): void {
  app.addHook("onSend", async (request, reply, payload) => {
    const timed = request.verified?.timedGateway;
    // Every operation gets the header; check, which calls no model, reports gateway time 0.
    if (timed || operationPaths.includes(request.routeOptions.url ?? "")) {
      reply.header("server-timing", serverTimingOf(timed, reply.elapsedTime));
    }
    return payload;
  });
}

/**
 * The `Server-Timing` value of an answer `totalMs` into its request: the gateway's share, the rest, and the
 * total. A streamed answer sends it with its headers, so its figures run up to the moment the stream opened.
 */
export function serverTimingOf(timed: TimedGateway | undefined, totalMs: number): string {
  const gatewayMs = Math.min(timed?.gatewayMs() ?? 0, totalMs);
  return `gateway;dur=${gatewayMs.toFixed(1)}, verify;dur=${(totalMs - gatewayMs).toFixed(1)}, total;dur=${totalMs.toFixed(1)}`;
}
