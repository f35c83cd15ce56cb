import { Agent, request as httpRequest } from "node:http";

/** One request as sent on the wire: any method, path, headers and bytes, nothing added but Host. */
export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as is; a string is sent as UTF-8. */
  body?: string | Buffer;
  /** The request fails (rejects) when no complete answer came within this time; default 15 s. */
  timeoutMs?: number;
}

/** A complete answer: status, headers (lower-case names) and the body as text and, when it is JSON, parsed. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever a hostile request got back, field by field.
  json: any;
}

/** A keep-alive HTTP client for one origin that sends bytes exactly as given. */
export interface RawClient {
  send(request: RawRequest): Promise<RawResponse>;
  /** Destroys the kept-alive sockets, so the service can close at once. */
  close(): Promise<void>;
}

/**
 * node:http rather than fetch: the body goes out byte for byte (invalid UTF-8, any content type), a missed
 * deadline is a rejected promise rather than a hang, and closing the agent drops every socket at once.
 */
export function createRawClient(baseURL: string, options: { maxSockets?: number } = {}): RawClient {
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 16 });
  return {
    send({ method = "POST", path, headers = {}, body, timeoutMs = 15_000 }) {
      return new Promise<RawResponse>((resolve, reject) => {
        const request = httpRequest(new URL(path, baseURL), { method, headers, agent });
        const timer = setTimeout(() => {
          request.destroy(new Error(`no answer to ${method} ${path} within ${timeoutMs} ms`));
        }, timeoutMs);
        request.on("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
        request.on("response", (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", (error) => {
            clearTimeout(timer);
            reject(error);
          });
          response.on("end", () => {
            clearTimeout(timer);
            const text = Buffer.concat(chunks).toString("utf8");
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
          });
        });
        request.end(body);
      });
    },
    async close() {
      agent.destroy();
    },
  };
}

/** A JSON POST as the service expects it: JSON content type and a bearer key (default "test-key"). */
export function jsonPost(
  path: string,
  body: unknown,
  options: { key?: string | null; headers?: Record<string, string>; timeoutMs?: number } = {},
): RawRequest {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  const key = options.key === undefined ? "test-key" : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const request: RawRequest = {
    path,
    headers,
    body: typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  };
  if (options.timeoutMs !== undefined) request.timeoutMs = options.timeoutMs;
  return request;
}
