import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { callerSignal, newRequestState } from "./request-state.js";

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/**
 * A server whose one route runs `handle` once the caller has sent its body; `leave` says whether the caller
 * leaves before the handler asks for the signal (`early`) or after (`late`). Resolves with the signal.
 */
async function signalOf(leave: "early" | "late"): Promise<AbortSignal> {
  const app = Fastify();
  apps.push(app);
  app.decorateRequest("verified", null as never);
  app.addHook("onRequest", async (request) => {
    request.verified = newRequestState();
  });
  let resolveSignal: (signal: AbortSignal) => void = () => undefined;
  const seen = new Promise<AbortSignal>((resolve) => {
    resolveSignal = resolve;
  });
  let entered: () => void = () => undefined;
  const handling = new Promise<void>((resolve) => {
    entered = resolve;
  });
  let closed: () => void = () => undefined;
  const clientGone = new Promise<void>((resolve) => {
    closed = resolve;
  });
  app.post("/work", async (request: FastifyRequest, reply: FastifyReply) => {
    entered();
    if (leave === "early") {
      await clientGone;
      await new Promise<void>((resolve) =>
        reply.raw.destroyed ? resolve() : reply.raw.once("close", () => resolve()),
      );
    }
    const signal = callerSignal(request, reply);
    if (leave === "late") {
      closed();
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
    }
    resolveSignal(signal);
    return reply.send("done");
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const call = httpRequest({ host: "127.0.0.1", port, path: "/work", method: "POST" });
  call.on("error", () => undefined);
  call.setHeader("content-type", "text/plain");
  call.end("body");
  if (leave === "early") {
    // The route runs (it has the body) before the caller leaves.
    await handling;
    call.destroy();
    closed();
  } else {
    await clientGone;
    call.destroy();
  }
  return seen;
}

describe("callerSignal", () => {
  it.each(["early", "late"] as const)(
    "aborts when the caller leaves (%s: before or after the handler asks for the signal)",
    async (leave) => {
      const signal = await signalOf(leave);
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toMatchObject({ type: "gateway_error", message: "The caller disconnected." });
    },
  );
});
