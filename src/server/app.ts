import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import swagger from "@fastify/swagger";
import { Type } from "@sinclair/typebox";
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from "fastify";
import type { Registry } from "prom-client";
import { API_PATHS, DROP_IN_PATHS, OPERATION_PATHS } from "../api-paths.js";
import { quoteRequestText, ServiceError } from "../errors/index.js";
import { OWN_TURN_TEXT_CHARS } from "../limits.js";
import { localModelId, type ModelBackend, maskSecrets, nextTurn, notUtf8At } from "../models/index.js";
import { compileValidator } from "../wire/index.js";
import type { AppDeps, ServerConfig } from "./config.js";
import { mapFrameworkError, writeClientError } from "./errors.js";
import { createInFlightRequests } from "./in-flight-requests.js";
import { parseJsonBody } from "./parse-json-body.js";
import { registerPlayground } from "./playground.js";
import {
  createServiceMetrics,
  recordResultMetrics,
  registerAuth,
  registerMetrics,
  registerRequestIds,
  registerRequestLog,
  registerServerTiming,
  requestIdHeader,
  requestIdOf,
  withRequestId,
} from "./plugins/index.js";
import { usePrefixItems } from "./prefix-items.js";
import { isBlankBody, readBody } from "./read-body.js";
import { newRequestState } from "./request-state.js";
import {
  registerChatCompletionsRoute,
  registerCheckRoute,
  registerCreateRoute,
  registerEvalRoute,
  registerExtractRoute,
  registerGuardrailRoutes,
  registerModelsRoute,
} from "./routes/index.js";
import { type CaseRange, evalBodyLimits, requestBodyLimits, scanJsonBody } from "./scan-json-body.js";

/** Options for building the app. */
export interface CreateAppOptions {
  gateway: ModelBackend;
  config: ServerConfig;
  newId?: AppDeps["newId"];
  now?: AppDeps["now"];
  /** Pino options or a logger; false (the default for tests) logs nothing. */
  logger?: FastifyServerOptions["logger"];
  /** Folder of the built playground; defaults to dist/playground. */
  playgroundRoot?: string;
}

const operationPaths = Object.values(OPERATION_PATHS);
/** Routes that need the caller's key like the operations, though they call no model. */
const guardedPaths = [...operationPaths, ...Object.values(DROP_IN_PATHS), API_PATHS.models];

// The OpenAPI document carries the package's version; package.json sits two levels above src/server and
// dist/server alike, so this reads the right file from the repository and from an installed package.
const packageVersion = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url")}`;
}

/** Builds the HTTP service: routes, validation, auth, errors, logs and the OpenAPI document. */
export async function createApp(options: CreateAppOptions): Promise<FastifyInstance> {
  // The local model and the routes' exact ids are labelled from the start; other ids once a gateway answers.
  const metrics = createServiceMetrics({
    configuredModels: options.config.models
      ?.filter((entry) => entry.match === "exact")
      .map((entry) => entry.id) ?? [localModelId],
  });
  const deps: AppDeps = {
    gateway: metrics.instrumentGateway(options.gateway),
    config: options.config,
    newId: options.newId ?? randomId,
    now: options.now ?? (() => performance.now()),
    recordResult: (request, result) => recordResultMetrics(metrics, request, result),
    recordVerification: (labels) => metrics.recordVerification(labels),
  };
  const app = Fastify({
    logger: options.logger ?? false,
    // One line per request, written in onResponse below, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Fastify's own 4xx for `__proto__`/`constructor` keys keeps parsed bodies free of prototype pollution.
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    // While closing, requests on open connections are still answered (Fastify's own 503 body would not be
    // the service's error envelope); the listener is already closed to new connections.
    return503OnClosing: false,
    forceCloseConnections: "idle",
    // Requests Node cannot parse get the service's error body too, not Fastify's.
    clientErrorHandler: writeClientError,
    // The whole request must arrive within requestTimeoutMs (a body trickled a byte at a time cannot hold a
    // connection); Node checks every connectionsCheckingInterval, so that is kept well under the timeout.
    requestTimeout: deps.config.requestTimeoutMs,
    http: {
      requestTimeout: deps.config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(
        1_000,
        Math.max(50, Math.floor(deps.config.requestTimeoutMs / 4)),
      ),
      // Node's own answer to a missing Host is a bare 400; the onRequest hook below answers with the envelope.
      requireHostHeader: false,
    },
    // A path with bad percent-encoding gets the registry envelope, not Fastify's own body.
    // No hook runs for it, so the request id is added here.
    frameworkErrors: (error, request, reply) => {
      const serviceError =
        (error as { code?: string }).code === "FST_ERR_BAD_URL"
          ? new ServiceError("invalid_request", "The request path is not valid percent-encoding.")
          : mapFrameworkError(error);
      (reply as FastifyReply)
        .status(serviceError.status)
        .header(requestIdHeader, request.id)
        .send(withRequestId(serviceError.toBody(), request.id));
    },
    // The caller's x-request-id when usable, else a new one; the request's log line carries it.
    genReqId: requestIdOf,
  });
  // The methods of every route path, for the 405 answer's Allow header; collected before any route exists.
  const knownPaths = new Map<string, string[]>();
  app.addHook("onRoute", (route) => {
    const methods = knownPaths.get(route.url) ?? [];
    for (const method of [route.method].flat()) if (!methods.includes(method)) methods.push(method);
    knownPaths.set(route.url, methods);
  });
  registerRequestIds(app);
  registerMetrics(app, metrics, { apiKeys: options.config.apiKeys });
  // `serve` adds the process-level metrics only it knows (workers replaced by the primary).
  app.decorate("metricsRegistry", metrics.registry);
  app.decorate("inFlight", createInFlightRequests());
  app.inFlight.watchConnections(app.server);
  // Closing by any path (a signal in `serve`, or an embedder's app.close()) turns /readyz to 503.
  app.addHook("preClose", async () => app.inFlight.beginShutdown());

  // Only JSON is accepted; anything else is 415 unsupported_media_type.
  app.removeContentTypeParser(["text/plain", "application/json"]);
  // JSON bodies are scanned before they are parsed: `__proto__`/`constructor` keys, more than 200 eval cases,
  // more sources than allowed and more values than MAX_JSON_VALUES are refused without building the body.
  // The body is read as bytes by `readBody`, chunk by chunk, with Fastify's limit and length checks.
  app.addContentTypeParser("application/json", async (request: FastifyRequest, payload: Readable) => {
    const bytes = await readBody(payload, request.headers["content-length"], request.routeOptions.bodyLimit);
    if (isBlankBody(bytes))
      throw new ServiceError("invalid_request", "The body is empty; send a JSON object.");
    // Ranges in `offsets: "utf8"` count the caller's bytes: a body that is not UTF-8 would be decoded with
    // U+FFFD in place of each bad byte, and every range after it would be off.
    const notUtf8 = notUtf8At(bytes);
    if (notUtf8 !== undefined) {
      throw new ServiceError(
        "invalid_request",
        `The body is not valid UTF-8: ${notUtf8}. Send the body as UTF-8.`,
      );
    }
    const limits = request.routeOptions.url === OPERATION_PATHS.eval ? evalBodyLimits : requestBodyLimits;
    // A large body is read, scanned and parsed each in a pass of the event loop of its own, and a large eval's
    // cases are decoded and parsed one by one with turns between them (parseJsonBody).
    const large = bytes.length >= OWN_TURN_TEXT_CHARS;
    if (large) await nextTurn();
    const caseRanges: CaseRange[] = [];
    const problem = scanJsonBody(bytes, limits, large ? caseRanges : undefined);
    if (problem) throw problem;
    if (large) await nextTurn();
    try {
      return await parseJsonBody(bytes, caseRanges);
    } catch {
      // JSON.parse's own message quotes the body; the caller's text is not echoed back.
      throw new ServiceError("invalid_request", "The body is not valid JSON.");
    }
  });
  app.decorateRequest("verified", null as never);
  app.addHook("onRequest", async (request, reply) => {
    request.verified = newRequestState();
    app.inFlight.track(request, reply);
    // HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own refusal is a bare 400 without the envelope.
    if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
      reply.header("connection", "close");
      throw new ServiceError("invalid_request", "The request has no Host header, which HTTP/1.1 requires.");
    }
  });

  app.setValidatorCompiler(({ schema }) => {
    const validate = compileValidator(schema as Parameters<typeof compileValidator>[0]);
    return (data: unknown) => {
      const result = validate(data);
      return result.ok
        ? { value: data }
        : { error: new ServiceError("invalid_request", result.message, { param: result.param }) };
    };
  });
  // Response schemas document the API; plain JSON.stringify keeps responses exactly as built.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // The backend as given, not the metrics wrapper: it says which models need the caller's key.
  registerAuth(app, { config: deps.config, gateway: options.gateway }, guardedPaths);
  registerServerTiming(app, operationPaths);
  registerRequestLog(app);

  app.setErrorHandler(async (error, request, reply) => {
    const bodyLimit = request.routeOptions.bodyLimit;
    const serviceError = mapFrameworkError(error, bodyLimit);
    if (serviceError.type === "internal_error") {
      // The message may quote a request or a gateway: masked, then cut, like every gateway text.
      const message = (error as Error)?.message;
      request.log.error(
        {
          request_id: request.id,
          err: {
            type: quoteRequestText(String((error as Error)?.name)),
            message: typeof message === "string" ? quoteRequestText(maskSecrets(message)) : undefined,
          },
        },
        "unexpected error",
      );
    }
    if (serviceError.details.retryAfterSeconds !== undefined) {
      reply.header("retry-after", String(serviceError.details.retryAfterSeconds));
    }
    return reply.status(serviceError.status).send(serviceError.toBody());
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const methods = knownPaths.get(path);
    if (methods !== undefined && methods.length > 0) {
      const allowed = methods.join(", ");
      reply.header("allow", allowed);
      const error = new ServiceError(
        "method_not_allowed",
        `${path} accepts ${allowed}, not ${request.method}.`,
      );
      return reply.status(error.status).send(error.toBody());
    }
    const error = new ServiceError(
      "not_found",
      `No endpoint at ${request.method} ${path}. See ${API_PATHS.openapi}.`,
    );
    return reply.status(error.status).send(error.toBody());
  });

  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "verified",
        version: packageVersion,
        description:
          "Grounded answers, extraction and evaluation, checked character for character against your sources.",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      security: [{ bearer: [] }],
    },
    transformObject: (document) =>
      "openapiObject" in document ? usePrefixItems(document.openapiObject) : document.swaggerObject,
  });

  app.get(
    API_PATHS.healthz,
    {
      schema: {
        summary: "Liveness",
        description: "200 once the service serves. Never needs a key.",
        security: [],
        response: { 200: Type.Object({ status: Type.Literal("ok") }) },
      },
    },
    async () => ({ status: "ok" }),
  );
  app.get(
    API_PATHS.readyz,
    {
      schema: {
        summary: "Readiness",
        description:
          "200 while the service takes new requests; 503 `shutting_down` from the moment a shutdown begins, so a load balancer stops routing here before the drain. Never needs a key.",
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal("ready") }),
        },
      },
    },
    async () => {
      if (app.inFlight.shuttingDown) {
        throw new ServiceError(
          "shutting_down",
          "The service is shutting down and takes no new requests; send them to another instance.",
        );
      }
      return { status: "ready" };
    },
  );
  app.get(
    API_PATHS.openapi,
    {
      schema: {
        summary: "This OpenAPI document",
        description: "Needs a key only when VERIFIED_API_KEYS is set.",
        response: { 200: Type.Object({}, { additionalProperties: true }) },
      },
    },
    async () => app.swagger(),
  );
  registerCreateRoute(app, deps);
  registerExtractRoute(app, deps);
  registerEvalRoute(app, deps);
  registerCheckRoute(app, deps);
  registerModelsRoute(app, deps);
  registerChatCompletionsRoute(app, deps);
  registerGuardrailRoutes(app, deps);
  await registerPlayground(app, options.playgroundRoot === undefined ? {} : { root: options.playgroundRoot });
  return app;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The app's Prometheus registry (GET /metrics), for metrics of the process that runs it. */
    metricsRegistry: Registry;
  }
}
