import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { requestSchemas } from "../../src/wire/schemas.js";
import { startWithoutGateway } from "./harness.js";

// GET /openapi.json, GET /healthz and GET /readyz.

const packageVersion = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

interface SchemaObject {
  type?: string;
  required?: string[];
  properties?: Record<string, unknown>;
}

interface Operation {
  requestBody: { required: boolean; content: Record<string, { schema: SchemaObject }> };
  responses: Record<string, { content: Record<string, { schema: SchemaObject }> }>;
}

const operations = [
  {
    path: "/v1/verified",
    name: "create",
    resultFields: [
      "id",
      "model",
      "text",
      "citations",
      "unsupported",
      "coverage",
      "abstained",
      "grounded",
      "usage",
    ],
  },
  {
    path: "/v1/verified/extract",
    name: "extract",
    resultFields: ["id", "model", "fields", "coverage", "usage"],
  },
  { path: "/v1/verified/eval", name: "eval", resultFields: ["aggregate", "cases", "usage"] },
  {
    path: "/v1/verified/check",
    name: "check",
    resultFields: ["text", "citations", "unsupported", "coverage", "usage"],
  },
];

/** Every value in a JSON tree with the path that leads to it. */
function* walk(value: unknown, path = "$"): Generator<[string, unknown]> {
  yield [path, value];
  if (typeof value !== "object" || value === null) return;
  for (const [key, child] of Object.entries(value)) yield* walk(child, `${path}.${key}`);
}

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1 document with bearer auth and the four operations", async () => {
    const service = await startWithoutGateway();

    const response = await fetch(`${service.url}/openapi.json`);

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const document = (await response.json()) as {
      openapi: string;
      info: { title: string; version: string };
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: unknown };
      security: unknown;
    };
    expect(document.openapi).toBe("3.1.0");
    expect(document.info).toMatchObject({ title: "verified", version: packageVersion });
    expect(document.components.securitySchemes).toEqual({ bearer: { type: "http", scheme: "bearer" } });
    expect(document.security).toEqual([{ bearer: [] }]);
    for (const { path } of operations) expect(Object.keys(document.paths[path] ?? {})).toEqual(["post"]);
  });

  it.each(operations)(
    "documents $path: its request schema and its result",
    async ({ path, name, resultFields }) => {
      const service = await startWithoutGateway();
      const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as {
        paths: Record<string, { post: Operation }>;
      };

      const operation = document.paths[path]?.post;
      const wire = requestSchemas[name] as SchemaObject;
      const request = operation?.requestBody.content["application/json"]?.schema;
      expect(operation?.requestBody.required).toBe(true);
      expect(request?.type).toBe("object");
      expect(Object.keys(request?.properties ?? {})).toEqual(Object.keys(wire.properties ?? {}));
      expect(request?.required).toEqual(wire.required);
      const result = operation?.responses["200"]?.content["application/json"]?.schema;
      expect(result?.required).toEqual(resultFields);
      const errorBody = operation?.responses.default?.content["application/json"]?.schema;
      expect(errorBody?.required).toEqual(["error"]);
    },
  );

  it("documents snake_case fields with their constraints", async () => {
    const service = await startWithoutGateway();
    const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as {
      paths: Record<string, { post: Operation }>;
    };

    const create = document.paths["/v1/verified"]?.post.requestBody.content["application/json"]?.schema;
    expect(create?.properties).toMatchObject({
      min_coverage: { type: "number", minimum: 0, maximum: 1 },
      retry: { type: "integer", minimum: 0, maximum: 5 },
      allow_ungrounded: { type: "boolean" },
      max_tokens: { type: "integer", minimum: 1 },
      temperature: { type: "number" },
    });
    const evalSchema =
      document.paths["/v1/verified/eval"]?.post.requestBody.content["application/json"]?.schema;
    expect(evalSchema?.properties?.cases).toMatchObject({ type: "array", minItems: 1 });
  });

  it.each([
    ["/v1/verified", ["claim", "unsupported", "attempt", "done", "error"]],
    ["/v1/verified/eval", ["case", "done", "error"]],
  ])("documents %s's event stream: the stream flag and each event's name and data", async (path, names) => {
    const service = await startWithoutGateway();
    const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as {
      paths: Record<string, { post: Operation }>;
    };

    const operation = document.paths[path]?.post;
    expect(operation?.requestBody.content["application/json"]?.schema.properties?.stream).toMatchObject({
      type: "boolean",
    });
    const events = operation?.responses["200"]?.content["text/event-stream"]?.schema as {
      anyOf?: { properties: { event: { const?: string; enum?: string[] }; data: SchemaObject } }[];
    };
    const eventNames = (events.anyOf ?? []).map(
      ({ properties }) => properties.event.const ?? properties.event.enum?.[0],
    );
    expect(eventNames).toEqual(names);
    const done = events.anyOf?.find(
      ({ properties }) => (properties.event.const ?? properties.event.enum?.[0]) === "done",
    );
    const result = operation?.responses["200"]?.content["application/json"]?.schema;
    expect(done?.properties.data.required).toEqual(result?.required);
  });

  it("uses JSON Schema 2020-12 (OpenAPI 3.1's dialect): tuples are prefixItems, never an items array", async () => {
    const service = await startWithoutGateway();
    const document: unknown = await (await fetch(`${service.url}/openapi.json`)).json();

    const arrayItems = [...walk(document)].filter(
      ([path, value]) => path.endsWith(".items") && Array.isArray(value),
    );
    const additionalItems = [...walk(document)].filter(([path]) => path.endsWith(".additionalItems"));
    expect(arrayItems.map(([path]) => path)).toEqual([]);
    expect(additionalItems.map(([path]) => path)).toEqual([]);
    const ranges = [...walk(document)].filter(([path]) => path.endsWith(".properties.range"));
    expect(ranges.length).toBeGreaterThan(0);
    for (const [, range] of ranges) {
      expect(range).toMatchObject({
        type: "array",
        prefixItems: [{ type: "integer" }, { type: "integer" }],
        minItems: 2,
        maxItems: 2,
      });
    }
  });
});

describe("GET /healthz", () => {
  it("answers 200 with no key", async () => {
    const service = await startWithoutGateway();

    const response = await fetch(`${service.url}/healthz`);
    const head = await fetch(`${service.url}/healthz`, { method: "HEAD" });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(head.status).toBe(200);
  });
});

describe("GET /readyz", () => {
  it("answers 200 ready with no key, also to HEAD, even when keys are required", async () => {
    const service = await startWithoutGateway({ config: { apiKeys: ["service-key"] } });

    const response = await fetch(`${service.url}/readyz`);
    const head = await fetch(`${service.url}/readyz`, { method: "HEAD" });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
    expect(head.status).toBe(200);
  });

  it("answers 503 shutting_down once a shutdown begins, while /healthz stays 200", async () => {
    const service = await startWithoutGateway();

    service.app.inFlight.beginShutdown();
    const response = await fetch(`${service.url}/readyz`);

    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: {
        type: "shutting_down",
        code: "shutting_down",
        message: "The service is shutting down and takes no new requests; send them to another instance.",
        request_id: response.headers.get("x-request-id"),
      },
    });
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  });

  it("counts app.close() as the start of a shutdown", async () => {
    const service = await startWithoutGateway();
    expect(service.app.inFlight.shuttingDown).toBe(false);

    await service.app.close();

    expect(service.app.inFlight.shuttingDown).toBe(true);
  });
});
