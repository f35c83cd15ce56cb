import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { type Static, Type } from "@sinclair/typebox";
import { findNodeAtLocation, type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { MAX_CONFIG_FILE_BYTES } from "../../limits.js";
import {
  firstInvalidHeader,
  type GatewaySettings,
  localModelId,
  type ModelRoute,
  maskURLCredentials,
} from "../../models/index.js";
import { firstSchemaProblem } from "../../wire/index.js";

// `verified serve --config verified.config.json`: named gateways and the routes from model ids to them, in
// JSON with comments. Every problem is reported with the file's line and column, before the port opens.

const environmentName = Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$", maxLength: 200 });
const stringMap = Type.Record(Type.String(), Type.String());

const GatewaySchema = Type.Object(
  {
    base_url: Type.String({ minLength: 1 }),
    api_key_env: Type.Optional(environmentName),
    auth: Type.Optional(Type.Union([Type.Literal("bearer"), Type.Literal("api-key"), Type.Literal("none")])),
    headers: Type.Optional(stringMap),
    headers_env: Type.Optional(Type.Record(Type.String(), environmentName)),
    query: Type.Optional(stringMap),
    token_parameter: Type.Optional(
      Type.Union([Type.Literal("max_tokens"), Type.Literal("max_completion_tokens")]),
    ),
    structured_output: Type.Optional(
      Type.Union([Type.Literal("json_schema"), Type.Literal("json_object"), Type.Literal("none")]),
    ),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 3_600_000 })),
  },
  { additionalProperties: false },
);

const RouteSchema = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    gateway: Type.String({ minLength: 1 }),
    strip_prefix: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The config file's shape (snake_case, like the HTTP API). */
export const ServeConfigFileSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    gateways: Type.Record(Type.String({ pattern: "^[A-Za-z0-9_-]{1,64}$" }), GatewaySchema, {
      minProperties: 1,
    }),
    routes: Type.Array(RouteSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type ServeConfigFile = Static<typeof ServeConfigFileSchema>;

const findProblem = firstSchemaProblem(ServeConfigFileSchema);

/**
 * The config file `--config` or VERIFIED_CONFIG names, read as text; undefined when neither names one, or a
 * message for a file that cannot be read, is not a regular file (a FIFO would hang start-up, a device never
 * end) or is over MAX_CONFIG_FILE_BYTES. Opened without blocking and checked on the open descriptor, so what
 * is checked is what is read.
 */
export function readConfigFileText(
  path: string | undefined,
): { path: string; text: string } | { error: string } | undefined {
  if (path === undefined || path.trim() === "") return undefined;
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(descriptor).isFile()) {
      return { error: `the config file ${path} is not a regular file; give the path of a JSON file.` };
    }
    // One byte past the limit tells a file that grew after the check from one at the limit.
    const buffer = Buffer.alloc(MAX_CONFIG_FILE_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(descriptor, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > MAX_CONFIG_FILE_BYTES) {
      return {
        error: `the config file ${path} is larger than ${MAX_CONFIG_FILE_BYTES.toLocaleString("en-US")} bytes, the limit.`,
      };
    }
    return { path, text: buffer.toString("utf8", 0, length) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { error: `cannot read the config file ${path}: ${code}` };
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The gateways and routes of a valid file, with notes for the start-up log; or the first problem. */
export type ConfigFileOutcome =
  | { ok: true; gateways: GatewaySettings[]; routes: ModelRoute[]; warnings: string[] }
  | { ok: false; message: string };

/** Defaults a gateway takes when the file leaves a setting out. */
export interface GatewayDefaults {
  timeoutMs: number;
}

/**
 * Parses and checks a config file. `env` supplies the variables the file names (keys, header values); a key
 * variable that is unset is only a warning (calls to that gateway are refused naming it), a header variable
 * that is unset is an error. Pure: the caller reads the file. O(n) in the file's length.
 */
export function parseServeConfigFile(
  text: string,
  fileName: string,
  env: Readonly<Record<string, string | undefined>>,
  defaults: GatewayDefaults,
): ConfigFileOutcome {
  const at = (offset: number) => `${fileName}:${lineAndColumn(text, offset)}`;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const firstError = errors[0];
  if (firstError !== undefined) {
    return { ok: false, message: `${at(firstError.offset)}: ${describeParseError(firstError)}.` };
  }
  if (root === undefined) return { ok: false, message: `${fileName}: the file is empty.` };
  const value = nodeValue(root);
  const problem = findProblem(value);
  if (problem !== undefined) {
    return { ok: false, message: `${at(offsetOf(root, problem.pointer))}: ${problem.message}` };
  }
  const file = value as ServeConfigFile;
  const fail = (path: (string | number)[], message: string): ConfigFileOutcome => ({
    ok: false,
    message: `${at(offsetOf(root, path))}: ${message}`,
  });

  const gateways: GatewaySettings[] = [];
  const warnings: string[] = [];
  for (const [name, gateway] of Object.entries(file.gateways)) {
    const path = ["gateways", name];
    if (!isHttpURL(gateway.base_url)) {
      return fail(
        [...path, "base_url"],
        `"gateways.${name}.base_url" must be an http:// or https:// URL; got ${JSON.stringify(maskURLCredentials(gateway.base_url))}.`,
      );
    }
    const headers: Record<string, string> = { ...gateway.headers };
    for (const [header, variable] of Object.entries(gateway.headers_env ?? {})) {
      const headerValue = env[variable];
      if (headerValue === undefined || headerValue === "") {
        return fail(
          [...path, "headers_env", header],
          `header "${header}" of gateway "${name}" is read from ${variable}, which is not set.`,
        );
      }
      headers[header] = headerValue;
    }
    const invalidHeader = firstInvalidHeader(headers);
    if (invalidHeader !== undefined) {
      // The value may be a secret from the environment: the message names the header only.
      const where = gateway.headers?.[invalidHeader] === undefined ? "headers_env" : "headers";
      return fail(
        [...path, where, invalidHeader],
        `header "${invalidHeader}" of gateway "${name}" is not a valid header.`,
      );
    }
    const apiKey = gateway.api_key_env === undefined ? undefined : env[gateway.api_key_env] || undefined;
    if (gateway.api_key_env !== undefined && apiKey === undefined) {
      warnings.push(
        `gateway "${name}" reads its key from ${gateway.api_key_env}, which is not set: its models will be refused until it is.`,
      );
    }
    gateways.push({
      name,
      baseURL: gateway.base_url,
      apiKeyEnv: gateway.api_key_env,
      apiKey,
      authHeader: gateway.auth ?? "bearer",
      headers,
      query: { ...gateway.query },
      tokenParameter: gateway.token_parameter ?? "max_tokens",
      structuredOutput: gateway.structured_output ?? "json_schema",
      timeoutMs: gateway.timeout_ms ?? defaults.timeoutMs,
    });
  }

  const routes: ModelRoute[] = [];
  const seen = new Set<string>();
  for (const [index, route] of file.routes.entries()) {
    const path = ["routes", index];
    const star = route.model.indexOf("*");
    if (star !== -1 && star !== route.model.length - 1) {
      return fail(
        [...path, "model"],
        `"routes[${index}].model" may hold "*" only at its end ("ollama/*"); got ${JSON.stringify(route.model)}.`,
      );
    }
    if (route.model === localModelId) {
      return fail([...path, "model"], `"${localModelId}" is the built-in local model and cannot be routed.`);
    }
    if (seen.has(route.model)) {
      return fail([...path, "model"], `"routes[${index}].model" repeats ${JSON.stringify(route.model)}.`);
    }
    seen.add(route.model);
    if (file.gateways[route.gateway] === undefined) {
      const known = Object.keys(file.gateways).join(", ");
      return fail(
        [...path, "gateway"],
        `"routes[${index}].gateway" names gateway ${JSON.stringify(route.gateway)}, which is not declared; declared: ${known}.`,
      );
    }
    if (route.strip_prefix === true && (star === -1 || route.model === "*")) {
      return fail(
        [...path, "strip_prefix"],
        `"routes[${index}].strip_prefix" needs a prefix pattern such as "ollama/*"; got ${JSON.stringify(route.model)}.`,
      );
    }
    routes.push({ model: route.model, gateway: route.gateway, stripPrefix: route.strip_prefix ?? false });
  }
  return { ok: true, gateways, routes, warnings };
}

function describeParseError(error: ParseError): string {
  const words = printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return `not valid JSON (${words})`;
}

function isHttpURL(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The value of a parse tree, with objects built without prototypes' setters (`__proto__` is a plain key). */
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case "object": {
      const object: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key === undefined || value === undefined) continue;
        Object.defineProperty(object, String(key.value), {
          value: nodeValue(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return object;
    }
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/** The offset of the node at a JSON pointer or path, or of its nearest existing ancestor. */
function offsetOf(root: Node, pointer: string | (string | number)[]): number {
  const path =
    typeof pointer === "string"
      ? pointer === ""
        ? []
        : pointer
            .slice(1)
            .split("/")
            .map((segment) => {
              const key = segment.replaceAll("~1", "/").replaceAll("~0", "~");
              return /^\d+$/.test(key) ? Number(key) : key;
            })
      : pointer;
  for (let length = path.length; length >= 0; length -= 1) {
    const node = findNodeAtLocation(root, path.slice(0, length));
    if (node !== undefined) {
      // A property's key is where a reader looks; its value's parent is the property node.
      const property = node.parent?.type === "property" ? node.parent : undefined;
      return property?.offset ?? node.offset;
    }
  }
  return root.offset;
}

/** `line:column`, both from 1, of an offset. O(offset). */
function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index += 1) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return `${line}:${offset - lineStart + 1}`;
}
