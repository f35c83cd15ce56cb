import { spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPortURL } from "../support/closed-port-url.js";
import { openRawConnection } from "../support/raw-connection.js";
import { binaryPath } from "../support/run-binary.js";
import {
  completion,
  delayed,
  hangReply,
  type ScriptedGateway,
  startScriptedGateway,
} from "../support/scripted-gateway.js";
import { expectRegistryError } from "./expect-response.js";
import { createRawClient, jsonPost } from "./raw-client.js";

// Rows f and g of issue 11: a client trickling its body, and SIGTERM while requests are in flight, against a
// spawned `verified serve` process: a real socket, a real signal, a real exit. Waits are bounds on when
// something must have happened (generous, for a loaded machine), never measurements.

const lyon = { claims: [{ claim: "Founded in Lyon.", quote: "Lyon", source: "report" }] };
const createBody = {
  model: "gpt-test",
  messages: [{ role: "user", content: "Where was Northwind founded?" }],
  sources: [{ id: "report", text: "Northwind was founded in 2016 in Lyon." }],
};

let gateway: ScriptedGateway;
beforeAll(async () => {
  gateway = await startScriptedGateway();
});
afterAll(async () => {
  await gateway?.close();
});

/** Starts `verified serve` on a free port with `env`; resolves once it serves. */
async function startServe(env: Record<string, string>) {
  const url = await closedPortURL();
  const child = spawn(process.execPath, [binaryPath, "serve", "--port", new URL(url).port], {
    env: { ...process.env, VERIFIED_GATEWAY_URL: gateway.url, VERIFIED_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.resume();
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const deadline = Date.now() + 30_000;
  while (!stdout.includes("verified is serving")) {
    if (Date.now() > deadline) throw new Error(`verified serve did not start: ${stdout}`);
    await delay(20);
  }
  return { url, child, exited, stdout: () => stdout };
}

/** Opens a connection that announces a 100-byte JSON body and sends one byte of it every `intervalMs`. */
function trickle(url: string, intervalMs: number) {
  const { socket, closed } = openRawConnection(
    url,
    "POST /v1/verified HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
      "Authorization: Bearer test-key\r\nContent-Length: 100\r\n\r\n{",
  );
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(" ");
  }, intervalMs);
  void closed.then(() => clearInterval(timer));
  return { socket, closed };
}

function parseAnswer(answer: string): { status: number; body: unknown } {
  const status = Number(answer.slice(9, 12));
  return { status, body: JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) };
}

/** Resolves with `promise`, or rejects when it has not settled within `ms` (a bound, not a measurement). */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    delay(ms, undefined, { ref: false }).then(() => {
      throw new Error(`${what} did not happen within ${ms} ms`);
    }),
  ]);
}

describe("(f) a client trickling its body", () => {
  it("gets 408 request_timeout with the envelope, and the connection is closed", async () => {
    const serve = await startServe({ VERIFIED_REQUEST_TIMEOUT_MS: "1000" });
    try {
      // One byte every 200 ms never completes the 100-byte body before the 1 s request timeout.
      const { closed } = trickle(serve.url, 200);
      const answer = await within(20_000, closed, "the 408 and the close");
      const { status, body } = parseAnswer(answer);
      expect(status).toBe(408);
      expectRegistryError(status, body);
      expect((body as { error: { type: string } }).error.type).toBe("request_timeout");
    } finally {
      serve.child.kill("SIGKILL");
    }
  }, 60_000);

  it("does not keep the process alive after SIGTERM: 503 shutting_down at the shutdown deadline, then exit 0", async () => {
    const serve = await startServe({
      VERIFIED_REQUEST_TIMEOUT_MS: "600000",
      VERIFIED_SHUTDOWN_TIMEOUT_MS: "1000",
    });
    try {
      const { closed } = trickle(serve.url, 200);
      await delay(300);
      serve.child.kill("SIGTERM");
      const answer = await within(20_000, closed, "the answer to the trickling client");
      const { status, body } = parseAnswer(answer);
      expect(status).toBe(503);
      expectRegistryError(status, body);
      expect((body as { error: { type: string } }).error.type).toBe("shutting_down");
      expect(await within(20_000, serve.exited, "the exit")).toBe(0);
    } finally {
      serve.child.kill("SIGKILL");
    }
  }, 60_000);
});

describe("(g) SIGTERM while requests are in flight", () => {
  it("a request on a hung gateway gets 503 shutting_down at the deadline, the gateway call is aborted, exit 0", async () => {
    gateway.script(() => hangReply());
    const serve = await startServe({
      VERIFIED_GATEWAY_TIMEOUT_MS: "120000",
      VERIFIED_SHUTDOWN_TIMEOUT_MS: "1000",
    });
    const client = createRawClient(serve.url);
    try {
      const callsBefore = gateway.calls.length;
      const pending = client.send(jsonPost("/v1/verified", createBody, { timeoutMs: 60_000 }));
      const [call] = (await gateway.waitForCalls(callsBefore + 1, 20_000)).slice(callsBefore);
      serve.child.kill("SIGTERM");
      // The 120 s gateway deadline is far away: only the shutdown deadline can end this request.
      const response = await within(20_000, pending, "the 503");
      expect(response.status).toBe(503);
      expectRegistryError(response.status, response.json);
      expect(response.json.error.type).toBe("shutting_down");
      await gateway.waitForClientClose(call?.index ?? -1, 20_000);
      expect(await within(20_000, serve.exited, "the exit")).toBe(0);
    } finally {
      await client.close();
      serve.child.kill("SIGKILL");
    }
  }, 60_000);

  it("a request that finishes before the deadline is answered normally, then the process exits 0", async () => {
    gateway.script(() => delayed(500, completion(lyon)));
    const serve = await startServe({ VERIFIED_SHUTDOWN_TIMEOUT_MS: "20000" });
    const client = createRawClient(serve.url);
    try {
      const callsBefore = gateway.calls.length;
      const pending = client.send(jsonPost("/v1/verified", createBody, { timeoutMs: 60_000 }));
      await gateway.waitForCalls(callsBefore + 1, 20_000);
      serve.child.kill("SIGTERM");
      const response = await pending;
      expect(response.status).toBe(200);
      expect(response.json.citations).toHaveLength(1);
      expect(await within(20_000, serve.exited, "the exit")).toBe(0);
    } finally {
      await client.close();
      serve.child.kill("SIGKILL");
    }
  }, 60_000);
});

describe("serve --help", () => {
  it("lists both timeouts with their variables and defaults", async () => {
    const child = spawn(process.execPath, [binaryPath, "serve", "--help"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    await once(child, "exit");
    const help = stdout.replace(/\s+/g, " ");
    expect(help).toContain("--request-timeout-ms <ms>");
    expect(help).toContain("VERIFIED_REQUEST_TIMEOUT_MS; default 30000");
    expect(help).toContain("--shutdown-timeout-ms <ms>");
    expect(help).toContain("VERIFIED_SHUTDOWN_TIMEOUT_MS; default 25000");
  });
});

describe("(h) readiness during a shutdown", () => {
  it("/readyz turns 503 at SIGTERM while /healthz and new requests are still answered for VERIFIED_SHUTDOWN_DELAY_MS, then exit 0", async () => {
    const serve = await startServe({ VERIFIED_SHUTDOWN_DELAY_MS: "8000" });
    try {
      expect((await fetch(`${serve.url}/readyz`)).status).toBe(200);
      serve.child.kill("SIGTERM");
      await within(
        20_000,
        (async () => {
          while (!serve.stdout().includes('"msg":"shutting down"')) await delay(20);
        })(),
        "the shutting down log line",
      );

      const ready = await fetch(`${serve.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { error: { type: string } }).error.type).toBe("shutting_down");
      expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
      const create = await fetch(`${serve.url}/v1/verified`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer test-key" },
        body: JSON.stringify({ ...createBody, model: "local" }),
      });
      expect(create.status).toBe(200);
      expect(await within(30_000, serve.exited, "the exit")).toBe(0);
    } finally {
      serve.child.kill("SIGKILL");
    }
  }, 60_000);
});
