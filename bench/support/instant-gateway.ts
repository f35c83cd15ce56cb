// Child process: an OpenAI-compatible gateway on 127.0.0.1 that answers every POST at once (or after the
// model's fixed delay) with a completion chosen by the request's `model`. The table of replies arrives over
// IPC; it records nothing but counts, so it costs as little as possible per call. See gateway-process.ts.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** What the gateway answers for one model: the message content, after `delayMs`. */
export interface GatewayReply {
  content: string;
  delayMs: number;
}

/** Messages from the parent. */
export type GatewayCommand =
  | { type: "configure"; replies: Record<string, GatewayReply> }
  | { type: "stats"; reset: boolean };

/** Messages to the parent. */
export type GatewayEvent =
  | { type: "listening"; port: number }
  | { type: "configured" }
  | { type: "stats"; calls: number; maxInFlight: number; unknownModels: number };

const bodies = new Map<string, { body: Buffer; delayMs: number }>();
let calls = 0;
let inFlight = 0;
let maxInFlight = 0;
let unknownModels = 0;

function completion(model: string, content: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: "chatcmpl-bench",
      object: "chat.completion",
      created: 0,
      model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    }),
  );
}

// The adapter writes `model` first, so reading it off the start avoids parsing a 100 kB prompt.
const modelAtStart = /^\{"model":"([^"\\]{1,200})"/;

function modelOf(body: Buffer): string | undefined {
  const start = modelAtStart.exec(body.subarray(0, 256).toString("latin1"))?.[1];
  if (start !== undefined) return start;
  try {
    const model = (JSON.parse(body.toString("utf8")) as { model?: unknown }).model;
    return typeof model === "string" ? model : undefined;
  } catch {
    return undefined;
  }
}

const notFound = Buffer.from(JSON.stringify({ error: { message: "unknown model", type: "not_found" } }));

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    calls += 1;
    const reply = bodies.get(modelOf(Buffer.concat(chunks)) ?? "");
    if (reply === undefined) {
      unknownModels += 1;
      response.writeHead(404, { "content-type": "application/json", "content-length": notFound.length });
      response.end(notFound);
      return;
    }
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const send = () => {
      inFlight -= 1;
      response.writeHead(200, { "content-type": "application/json", "content-length": reply.body.length });
      response.end(reply.body);
    };
    if (reply.delayMs > 0) setTimeout(send, reply.delayMs);
    else send();
  });
});
// Idle keep-alive connections outlive the pauses between benchmark rounds, as a real gateway's would.
server.keepAliveTimeout = 60_000;

const send = (event: GatewayEvent) => process.send?.(event);

process.on("message", (command: GatewayCommand) => {
  if (command.type === "configure") {
    bodies.clear();
    for (const [model, reply] of Object.entries(command.replies)) {
      bodies.set(model, { body: completion(model, reply.content), delayMs: reply.delayMs });
    }
    send({ type: "configured" });
  } else {
    send({ type: "stats", calls, maxInFlight, unknownModels });
    if (command.reset) {
      calls = 0;
      maxInFlight = inFlight;
      unknownModels = 0;
    }
  }
});
// The parent going away ends the gateway.
process.on("disconnect", () => process.exit(0));

server.listen(0, "127.0.0.1", () =>
  send({ type: "listening", port: (server.address() as AddressInfo).port }),
);
