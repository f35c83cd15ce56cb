import type { Gateway } from "../gateway/types.js";

/** A gateway that measures the wall time during which at least one of its calls was in flight. */
export interface TimedGateway extends Gateway {
  gatewayMs(): number;
}

/** Wraps a gateway for one request, for the `Server-Timing` split between gateway and service time. */
export function createTimedGateway(gateway: Gateway, now: () => number): TimedGateway {
  let inFlight = 0;
  let since = 0;
  let total = 0;
  return {
    async generate(request) {
      if (inFlight === 0) since = now();
      inFlight += 1;
      try {
        return await gateway.generate(request);
      } finally {
        inFlight -= 1;
        if (inFlight === 0) total += now() - since;
      }
    },
    gatewayMs: () => (inFlight > 0 ? total + now() - since : total),
  };
}
