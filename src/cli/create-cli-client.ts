import { DEFAULT_BASE_URL, Verified } from "../client/index.js";
import { createApp } from "../server/create-app.js";
import { createEngineGateway } from "../service/create-engine-gateway.js";
import { CliInputError } from "./cli-input-error.js";
import { injectFetch } from "./inject-fetch.js";
import { readServeSettings } from "./read-serve-settings.js";

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
    const outcome = readServeSettings(env);
    if (!outcome.ok) throw new CliInputError(outcome.message);
    const { settings } = outcome;
    const app = await createApp({
      gateway: createEngineGateway(settings),
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
      `the base URL must start with http:// or https://; got ${JSON.stringify(baseURL)} (--base-url or VERIFIED_BASE_URL).`,
    );
  }
  const apiKey = flags.apiKey ?? (nonEmpty(env.VERIFIED_API_KEY) || undefined);
  const client = new Verified({ baseURL, apiKey, timeout });
  return { client, target: client.baseURL, close: async () => {} };
}

function nonEmpty(value: string | undefined): string {
  return value?.trim() ?? "";
}
