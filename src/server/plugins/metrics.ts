import type { FastifyInstance, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { API_PATHS, OPERATION_PATHS } from "../../api-paths.js";
import { ServiceError } from "../../errors/index.js";
import { type ModelBackend, relayByGenerate } from "../../models/index.js";
import { createKeyChecker, readBearerKey } from "./auth.js";

// Prometheus metrics of one app: HTTP requests, gateway calls, and groundedness (claims, coverage,
// abstentions, eval cases), served at GET /metrics. One registry per app, so tests and workers never share.

/**
 * Every metric name the service exports (the Grafana dashboard's test and the table in docs/operations.md are
 * checked against these). `verified_worker_restarts_total` is registered by `serve --workers` in each worker.
 */
export const metricNames = [
  "verified_http_requests_total",
  "verified_http_request_duration_seconds",
  "verified_gateway_calls_total",
  "verified_gateway_call_duration_seconds",
  "verified_gateway_retries_total",
  "verified_claims_total",
  "verified_coverage",
  "verified_abstentions_total",
  "verified_eval_cases_total",
  "verified_chat_verifications_total",
  "verified_worker_restarts_total",
] as const;

/** Fraction buckets for coverage. */
const coverageBuckets = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1];

/** Distinct answered model ids kept as labels (configured exact routes come on top); later ones are `(other)`. */
export const maxModelLabels = 100;

/** Labels this service makes itself, never a caller's model id. */
const fixedModelLabels = new Set(["(none)", "(unknown)", "(other)"]);

/**
 * Bounds the label values a caller can create. A model id earns its own label only once a gateway (or the
 * local model) answered a call for it, or when a route names it exactly; ids refused (no route, 404, 401) stay
 * `(other)`, so made-up ids cannot take the slots of real models.
 */
function modelLabeler(configuredModels: readonly string[]): {
  label: (model: string) => string;
  admit: (model: string) => void;
} {
  const labelled = new Set(configuredModels);
  const cap = labelled.size + maxModelLabels;
  return {
    label: (model) => (labelled.has(model) || fixedModelLabels.has(model) ? model : "(other)"),
    admit(model) {
      if (labelled.size < cap && model.length <= 200) labelled.add(model);
    },
  };
}

/** The metrics of one app. */
export interface ServiceMetrics {
  registry: Registry;
  /** Wraps the app's gateway so every model call is counted and timed, by model and outcome. */
  instrumentGateway(gateway: ModelBackend): ModelBackend;
  /** Counts one verification of `/v1/chat/completions` or a guardrail, by route, action and verdict. */
  recordVerification(labels: { route: string; action: string; verdict: string }): void;
}

/** Creates the registry (with Node process metrics) and the service's metrics in it. */
export function createServiceMetrics(
  options: {
    now?: () => number;
    /** Model ids that have a label from the start: the local model and the exact ids of the routes. */
    configuredModels?: readonly string[];
  } = {},
): ServiceMetrics & {
  modelLabel: (model: string) => string;
  requests: Counter<"route" | "method" | "status">;
  requestSeconds: Histogram<"route" | "method">;
  claims: Counter<"model" | "outcome" | "reason">;
  coverage: Histogram<"model" | "endpoint">;
  abstentions: Counter<"model">;
  evalCases: Counter<"model" | "outcome">;
  verifications: Counter<"route" | "action" | "verdict">;
} {
  const registry = new Registry();
  const now = options.now ?? (() => performance.now());
  const labeler = modelLabeler(options.configuredModels ?? []);
  const modelLabel = labeler.label;
  collectDefaultMetrics({ register: registry, prefix: "verified_" });
  const registers = [registry];
  const gatewayCalls = new Counter({
    name: "verified_gateway_calls_total",
    help: "Model calls by gateway (or local), model and outcome (ok, or the error type).",
    labelNames: ["gateway", "model", "outcome"] as const,
    registers,
  });
  const gatewaySeconds = new Histogram({
    name: "verified_gateway_call_duration_seconds",
    help: "Model call latency by gateway (or local), model and outcome, retries and backoff included.",
    labelNames: ["gateway", "model", "outcome"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers,
  });
  const gatewayRetries = new Counter({
    name: "verified_gateway_retries_total",
    help: "Retries of transient gateway failures (5xx, resets, unusable bodies), by gateway and model.",
    labelNames: ["gateway", "model"] as const,
    registers,
  });
  const verifications = new Counter({
    name: "verified_chat_verifications_total",
    help: "Answers verified by /v1/chat/completions and the guardrail endpoints, by route, action and verdict.",
    labelNames: ["route", "action", "verdict"] as const,
    registers,
  });
  /** Counts and times one call; a model no route reaches has no gateway: "none". Returns the model label. */
  const observeCall = (gateway: ModelBackend, model: string, outcome: string, started: number) => {
    const labels = { gateway: gateway.answererOf?.(model) ?? "none", model: modelLabel(model), outcome };
    gatewayCalls.inc(labels);
    gatewaySeconds.observe(labels, (now() - started) / 1000);
    return labels.model;
  };
  return {
    registry,
    modelLabel,
    verifications,
    recordVerification: (labels) => verifications.inc(labels),
    instrumentGateway(gateway) {
      return {
        async generate(request) {
          const started = now();
          let outcome = "ok";
          // Counted when the call ends, under the label the model has then (answered or not).
          const retriesByGateway = new Map<string, number>();
          const onRetry = (gatewayName: string) => {
            retriesByGateway.set(gatewayName, (retriesByGateway.get(gatewayName) ?? 0) + 1);
            request.onRetry?.(gatewayName);
          };
          try {
            const answer = await gateway.generate({ ...request, onRetry });
            labeler.admit(request.model);
            return answer;
          } catch (error) {
            outcome = error instanceof ServiceError ? error.type : "aborted";
            throw error;
          } finally {
            const model = observeCall(gateway, request.model, outcome, started);
            for (const [gatewayName, retries] of retriesByGateway)
              gatewayRetries.inc({ gateway: gatewayName, model }, retries);
          }
        },
        // A relayed call is counted when its answer's status arrives: ok for 2xx, else `http_<status>`.
        async relay(request) {
          const started = now();
          let outcome = "ok";
          try {
            // A backend without a relay of its own (a test's scripted one) answers through generate.
            const answer = await (gateway.relay?.(request) ?? relayByGenerate(gateway, request));
            if (answer.status >= 200 && answer.status < 300) labeler.admit(request.model);
            else outcome = `http_${answer.status}`;
            return answer;
          } catch (error) {
            outcome = error instanceof ServiceError ? error.type : "aborted";
            throw error;
          } finally {
            observeCall(gateway, request.model, outcome, started);
          }
        },
      };
    },
    requests: new Counter({
      name: "verified_http_requests_total",
      help: "HTTP requests by route, method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    requestSeconds: new Histogram({
      name: "verified_http_request_duration_seconds",
      help: "HTTP request latency by route and method.",
      labelNames: ["route", "method"] as const,
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    }),
    claims: new Counter({
      name: "verified_claims_total",
      help: "Claims checked, by model, outcome (grounded, unsupported) and reason of unsupported ones.",
      labelNames: ["model", "outcome", "reason"] as const,
      registers,
    }),
    coverage: new Histogram({
      name: "verified_coverage",
      help: "Coverage of each result (each eval case), by model and endpoint.",
      labelNames: ["model", "endpoint"] as const,
      buckets: coverageBuckets,
      registers,
    }),
    abstentions: new Counter({
      name: "verified_abstentions_total",
      help: "Create results that abstained (coverage below min_coverage), by model.",
      labelNames: ["model"] as const,
      registers,
    }),
    evalCases: new Counter({
      name: "verified_eval_cases_total",
      help: "Eval cases by model and outcome (scored, errored).",
      labelNames: ["model", "outcome"] as const,
      registers,
    }),
  };
}

type Metrics = ReturnType<typeof createServiceMetrics>;

interface ClaimsShape {
  citations?: unknown[] | number;
  unsupported?: { reason?: string }[] | number;
  coverage?: number;
  abstained?: boolean;
}

/** The operation each operation path serves (`create`, `extract`, `eval`, `check`), for the metrics' labels. */
const endpoints: Record<string, string> = Object.fromEntries(
  Object.entries(OPERATION_PATHS).map(([operation, path]) => [path, operation]),
);

function countClaims(metrics: Metrics, model: string, result: ClaimsShape, details?: ClaimsShape): void {
  const grounded = Array.isArray(result.citations) ? result.citations.length : (result.citations ?? 0);
  if (grounded > 0) metrics.claims.inc({ model, outcome: "grounded", reason: "" }, grounded);
  const unsupported = Array.isArray(details?.unsupported)
    ? details.unsupported
    : Array.isArray(result.unsupported)
      ? result.unsupported
      : undefined;
  if (unsupported !== undefined) {
    for (const claim of unsupported)
      metrics.claims.inc({ model, outcome: "unsupported", reason: claim.reason ?? "unknown" });
  } else if (typeof result.unsupported === "number" && result.unsupported > 0) {
    // An eval case without details reports only the count.
    metrics.claims.inc({ model, outcome: "unsupported", reason: "unreported" }, result.unsupported);
  }
}

/** Counts the groundedness of one successful operation's result. */
function observeResult(metrics: Metrics, endpoint: string, model: string, payload: unknown): void {
  if (typeof payload !== "object" || payload === null) return;
  if (endpoint === "eval") {
    const cases = (payload as { cases?: unknown }).cases;
    if (!Array.isArray(cases)) return;
    for (const entry of cases as (ClaimsShape & { error?: unknown; result?: ClaimsShape })[]) {
      if (entry.error !== undefined) {
        metrics.evalCases.inc({ model, outcome: "errored" });
        continue;
      }
      metrics.evalCases.inc({ model, outcome: "scored" });
      if (typeof entry.coverage === "number") metrics.coverage.observe({ model, endpoint }, entry.coverage);
      countClaims(metrics, model, entry, entry.result);
    }
    return;
  }
  const result = payload as ClaimsShape;
  if (typeof result.coverage === "number") metrics.coverage.observe({ model, endpoint }, result.coverage);
  if (endpoint === "extract") return;
  countClaims(metrics, model, result);
  if (result.abstained === true) metrics.abstentions.inc({ model });
}

/**
 * Counts the groundedness of a successful operation's wire result. The preSerialization hook calls it for
 * JSON answers; a streamed answer, which no hook sees, calls it with its `done` result.
 */
export function recordResultMetrics(metrics: Metrics, request: FastifyRequest, payload: unknown): void {
  const endpoint = endpoints[request.routeOptions.url ?? ""];
  if (endpoint === undefined) return;
  const model = metrics.modelLabel(
    request.verified?.model ?? (endpoint === "check" ? "(none)" : "(unknown)"),
  );
  observeResult(metrics, endpoint, model, payload);
}

/**
 * Registers the metric hooks and `GET /metrics` (Prometheus text format). When the service has API keys,
 * `/metrics` needs one of them, like every other route that tells about usage; otherwise it is open, like
 * the rest of the service.
 */
export function registerMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  options: { apiKeys: readonly string[] | undefined },
): void {
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "(unmatched)";
    metrics.requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    metrics.requestSeconds.observe({ route, method: request.method }, reply.elapsedTime / 1000);
  });
  app.addHook("preSerialization", async (request: FastifyRequest, reply, payload) => {
    if (reply.statusCode === 200) recordResultMetrics(metrics, request, payload);
    return payload;
  });
  const checkKey = options.apiKeys ? createKeyChecker(options.apiKeys) : undefined;
  app.get(
    API_PATHS.metrics,
    {
      schema: {
        summary: "Prometheus metrics",
        description:
          "Requests, gateway calls and groundedness. Needs a key only when VERIFIED_API_KEYS is set.",
        hide: false,
      },
      onRequest: async (request) => {
        if (checkKey && !checkKey(readBearerKey(request.headers.authorization))) {
          throw new ServiceError("invalid_key", "The API key is not valid for this service.");
        }
      },
    },
    async (_request, reply) => {
      reply.header("content-type", metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
}
