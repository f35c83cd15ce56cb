// The service's cross-cutting hooks, each registered on the app by name: auth, Server-Timing, the request
// log line, request ids and trace context, metrics.
export { createKeyChecker, readBearerKey, registerAuth } from "./auth.js";
export { createServiceMetrics, recordResultMetrics, registerMetrics } from "./metrics.js";
export { registerRequestLog } from "./request-log.js";
export { createTimedGateway, registerServerTiming, serverTimingOf, type TimedGateway } from "./timing.js";
export {
  registerRequestIds,
  requestIdHeader,
  requestIdOf,
  traceHeadersOf,
  withRequestId,
} from "./tracing.js";
