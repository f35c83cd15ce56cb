import type { FastifyInstance } from "fastify";
import { createModelBackend } from "../../src/models/create-model.js";
import { createApp } from "../../src/server/app.js";
import { defaultServerConfig, type ServerConfig } from "../../src/server/config.js";

/** A running service on 127.0.0.1 for one test file. */
export interface RunningService {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  app: FastifyInstance;
  /** Log lines written while it ran (JSON objects), when `captureLogs` was set. */
  logs: Record<string, unknown>[];
  /** POSTs JSON with a bearer key (default "test-key") and returns status, headers and parsed body. */
  post(
    path: string,
    body: unknown,
    options?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    headers: Headers;
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the service answered.
    body: any;
  }>;
  close(): Promise<void>;
}

/** Options: the gateway URL (a scripted gateway's), config overrides, extra headers for gateway calls. */
export interface StartServiceOptions {
  gatewayURL?: string;
  gatewayHeaders?: Record<string, string>;
  gatewayTimeoutMs?: number;
  config?: Partial<ServerConfig>;
  captureLogs?: boolean;
  newId?: (prefix: "vfd" | "ext") => string;
}

/** Starts the real app (real local model, real gateway adapter) listening on a free loopback port. */
export async function startService(options: StartServiceOptions = {}): Promise<RunningService> {
  const logs: Record<string, unknown>[] = [];
  const stream = {
    write(line: string) {
      logs.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
  const app = await createApp({
    gateway: createModelBackend({
      gatewayURL: options.gatewayURL,
      gatewayHeaders: options.gatewayHeaders ?? {},
      gatewayTimeoutMs: options.gatewayTimeoutMs ?? 5_000,
    }),
    config: { ...defaultServerConfig, ...options.config },
    logger: options.captureLogs ? { level: "info", stream } : false,
    ...(options.newId ? { newId: options.newId } : {}),
  });
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    url: address,
    app,
    logs,
    async post(path, body, postOptions = {}) {
      const headers: Record<string, string> = { "content-type": "application/json", ...postOptions.headers };
      const key = postOptions.key === undefined ? "test-key" : postOptions.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      const response = await fetch(`${address}${path}`, {
        method: "POST",
        headers,
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // leave as text
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    close: () => app.close(),
  };
}
