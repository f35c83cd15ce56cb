import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPortURL } from "../support/closed-port-url.js";
import { hangReply, type ScriptedGateway, startScriptedGateway } from "../support/scripted-gateway.js";
import { startServe, waitUntil } from "../support/serve-process.js";

// Signals during a drain, and workers that die, against spawned `verified serve` processes: real signals, real
// exits. Waits are bounds on when something must have happened (generous, for a loaded machine).

const createBody = {
  model: "gpt-test",
  messages: [{ role: "user", content: "Where was Northwind founded?" }],
  sources: [{ id: "report", text: "Northwind was founded in 2016 in Lyon." }],
};

let gateway: ScriptedGateway;
beforeAll(async () => {
  gateway = await startScriptedGateway();
  gateway.script(() => hangReply());
});
afterAll(async () => {
  await gateway?.close();
});

/** A create whose gateway call hangs: answered only by the shutdown (503), or never (then the promise fails). */
function hungCreate(url: string) {
  let settled = false;
  const answer = fetch(`${url}/v1/verified`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify(createBody),
  }).then(
    async (response) => ({
      status: response.status,
      body: (await response.json()) as { error?: { type?: string } },
    }),
    (error: unknown) => ({ status: 0, body: { error: { type: `no answer: ${String(error)}` } } }),
  );
  void answer.finally(() => {
    settled = true;
  });
  return { answer, settled: () => settled };
}

async function startServing(args: string[], env: Record<string, string>, workers = 1) {
  const url = await closedPortURL();
  const serve = startServe(["--port", new URL(url).port, ...args], {
    VERIFIED_GATEWAY_URL: gateway.url,
    ...env,
  });
  await waitUntil(() => serve.logLines("verified is serving").length === workers, "serving");
  return { url, serve };
}

describe("signals during a drain", () => {
  it("a second SIGTERM is logged and ignored; a second Ctrl-C (SIGINT) hurries the drain", async () => {
    const { url, serve } = await startServing([], { VERIFIED_SHUTDOWN_TIMEOUT_MS: "600000" });
    try {
      const request = hungCreate(url);
      await waitUntil(() => gateway.calls.length > 0, "the gateway call");
      serve.child.kill("SIGTERM");
      await waitUntil(() => serve.logLines("shutting down").length === 1, "the drain");
      serve.child.kill("SIGTERM");
      await waitUntil(
        () => serve.logLines("signal ignored: already shutting down").length === 1,
        "the log line",
      );
      // Still draining: alive, and the request in flight is still waiting for its answer.
      expect(serve.child.exitCode).toBe(null);
      expect(request.settled()).toBe(false);

      serve.child.kill("SIGINT");
      await waitUntil(
        () => serve.logLines("signal ignored: already shutting down").length === 2,
        "the log line",
      );
      serve.child.kill("SIGINT");
      expect((await request.answer).status).toBe(503);
      expect((await request.answer).body.error?.type).toBe("shutting_down");
      expect(await serve.exited).toBe(0);
      expect(serve.logLines("shutdown hurried: requests in flight end now")).toHaveLength(1);
    } finally {
      serve.kill();
    }
  }, 120_000);

  it("with --workers, a process-group SIGTERM drains each worker like a single process", async () => {
    const { url, serve } = await startServing(
      ["--workers", "2"],
      { VERIFIED_SHUTDOWN_TIMEOUT_MS: "3000" },
      2,
    );
    try {
      const calls = gateway.calls.length;
      const request = hungCreate(url);
      await waitUntil(() => gateway.calls.length > calls, "the gateway call");
      // As `kill -TERM -<pgid>` or a container runtime stopping the whole group: every process gets it, and
      // each worker gets it again from the primary.
      process.kill(-(serve.child.pid ?? 0), "SIGTERM");
      expect(await request.answer).toEqual({
        status: 503,
        body: { error: expect.objectContaining({ type: "shutting_down" }) },
      });
      // On a failure, the processes' output says which one exited how (a rare failure under a loaded full suite).
      const exitCode = await serve.exited;
      expect(exitCode, JSON.stringify(serve.output())).toBe(0);
      expect(serve.logLines("shutting down")).toHaveLength(2);
    } finally {
      serve.kill();
    }
  }, 120_000);
});

describe("a worker that dies", () => {
  it("is replaced by the primary, logged, and counted in verified_worker_restarts_total", async () => {
    const { url, serve } = await startServing(["--workers", "2"], {}, 2);
    try {
      const [first] = serve.logLines("verified is serving");
      process.kill(Number(first?.pid), "SIGKILL");
      await waitUntil(() => serve.logLines("verified is serving").length === 3, "a replacement worker");
      const [died] = serve.logLines("worker died; replacing it");
      expect(died).toMatchObject({ level: 50, worker_pid: first?.pid, signal: "SIGKILL" });
      const pids = new Set(serve.logLines("verified is serving").map((line) => line.pid));
      expect(pids.size).toBe(3);
      // Every worker that answers /metrics has been told of the restart.
      for (let scrape = 0; scrape < 4; scrape += 1) {
        const metrics = await (await fetch(`${url}/metrics`)).text();
        expect(metrics).toMatch(/^verified_worker_restarts_total 1$/m);
      }
      serve.child.kill("SIGTERM");
      expect(await serve.exited).toBe(0);
    } finally {
      serve.kill();
    }
  }, 120_000);
});

// The crash loop (five crashes within a minute) and the restart policy are driven with an injected clock in
// src/cli/commands/supervise-workers.test.ts: a spawned process cannot be told what time it is.
