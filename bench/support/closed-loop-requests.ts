import { Agent, request } from "node:http";

/** One batch of POSTs of the same body over keep-alive connections. */
export interface ClosedLoopOptions {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  requests: number;
  concurrency: number;
  agent: Agent;
  /** Called with each response body after its latency is taken; throws to fail the batch. */
  check(status: number, body: Buffer): void;
}

function post(options: ClosedLoopOptions): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      options.url,
      {
        method: "POST",
        agent: options.agent,
        headers: { ...options.headers, "content-length": String(options.body.length) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

/**
 * Sends `requests` POSTs with `concurrency` in flight (each connection sends its next request when the
 * previous answer has been read) and returns every latency in ms, from the write to the last byte read.
 */
export async function closedLoopRequests(options: ClosedLoopOptions): Promise<number[]> {
  const latencies: number[] = [];
  let started = 0;
  const lane = async () => {
    while (started < options.requests) {
      started += 1;
      const start = performance.now();
      const { status, body } = await post(options);
      latencies.push(performance.now() - start);
      options.check(status, body);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return latencies;
}

/** A keep-alive agent holding up to `connections` sockets. */
export function keepAliveAgent(connections: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}
