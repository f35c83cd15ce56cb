import type { FastifyInstance } from "fastify";
import { DEFAULT_BASE_URL, type FetchLike, Verified } from "../../client/index.js";
import { createModelBackend, maskURLCredentials } from "../../models/index.js";
import { createApp } from "../../server/index.js";
import { CliInputError } from "../input/index.js";
import { readConfigFileText } from "./serve-config-file.js";
import { readServeSettings } from "./serve-settings.js";

/** The connection flags every networked command takes. */
export interface ConnectionFlags {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  local?: boolean | undefined;
  /** Seconds per request attempt. */
  timeout?: number | undefined;
}

/** A client for one command run, and how to release what it holds. */
export interface CliClient {
  client: Verified;
  /** Where it points, for messages: the base URL, or "in process". */
  target: string;
  close(): Promise<void>;
}

/**
 * The client a command uses. Networked: `--base-url`/`VERIFIED_BASE_URL` with `--api-key`/`VERIFIED_API_KEY`.
 * `--local`: the real app built in process from the same environment as `verified serve` (gateway URL,
 * headers, timeout, eval concurrency, sources budget), reached through `app.inject`. Nothing is
 * authenticated in process; a gateway, when configured, is called with `--api-key`, else
 * `VERIFIED_GATEWAY_KEY`, else `VERIFIED_API_KEY`.
 */
export async function createCliClient(
  flags: ConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
  defaultTimeoutSeconds: number,
): Promise<CliClient> {
  const timeout = (flags.timeout ?? defaultTimeoutSeconds) * 1000;
  if (flags.local) {
    // The same gateways as `serve`: the variables, or the config file VERIFIED_CONFIG names.
    const configFile = readConfigFileText(env.VERIFIED_CONFIG);
    if (configFile !== undefined && "error" in configFile) throw new CliInputError(configFile.error);
    const outcome = readServeSettings(env, {}, configFile);
    if (!outcome.ok) throw new CliInputError(outcome.message);
    const { settings } = outcome;
    const app = await createApp({
      gateway: createModelBackend(settings),
      config: { ...settings.config, apiKeys: undefined },
      logger: false,
    });
    const client = new Verified({
      baseURL: "http://verified.local",
      apiKey:
        flags.apiKey ?? (nonEmpty(env.VERIFIED_GATEWAY_KEY) || nonEmpty(env.VERIFIED_API_KEY) || "local"),
      timeout,
      fetch: injectFetch(app),
    });
    return { client, target: "in process (--local)", close: () => app.close() };
  }
  const baseURL = flags.baseUrl ?? (nonEmpty(env.VERIFIED_BASE_URL) || DEFAULT_BASE_URL);
  if (!/^https?:\/\/[^\s/]+/i.test(baseURL)) {
    throw new CliInputError(
      `the base URL must start with http:// or https://; got ${JSON.stringify(maskURLCredentials(baseURL))} (--base-url or VERIFIED_BASE_URL).`,
    );
  }
  const apiKey = flags.apiKey ?? (nonEmpty(env.VERIFIED_API_KEY) || undefined);
  const client = new Verified({ baseURL, apiKey, timeout });
  return { client, target: client.baseURL, close: async () => {} };
}

function nonEmpty(value: string | undefined): string {
  return value?.trim() ?? "";
}

/**
 * A `fetch` that hands each request to `app.inject`: the client speaks the same HTTP contract to an app in
 * this process, with no port. The caller's signal aborts the injected request.
 */
export function injectFetch(app: FastifyInstance): FetchLike {
  return async (url, init) => {
    const { pathname, search } = new URL(url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const response = await app.inject({
      method: (init.method ?? "GET") as "GET" | "POST",
      url: `${pathname}${search}`,
      headers,
      ...(typeof init.body === "string" ? { payload: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of [value].flat()) responseHeaders.append(name, String(item));
    }
    return new Response(response.rawPayload.length === 0 ? null : new Uint8Array(response.rawPayload), {
      status: response.statusCode,
      headers: responseHeaders,
    });
  };
}
