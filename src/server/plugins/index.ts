// The service's cross-cutting hooks, each registered on the app by name: auth, Server-Timing, the request
// log line, request ids and trace context, metrics.
export { createKeyChecker, readBearerKey, registerAuth } from "./auth.js";
export { createServiceMetrics, registerMetrics } from "./metrics.js";
export { registerRequestLog } from "./request-log.js";
export { createTimedGateway, registerServerTiming, type TimedGateway } from "./timing.js";
export { registerRequestIds, requestIdOf, traceHeadersOf } from "./tracing.js";
