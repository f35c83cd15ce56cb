import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { closedPortURL } from "./support/closed-port-url.js";
import { binaryPath } from "./support/run-binary.js";

/** Starts `verified serve` with arguments; collects its output; resolves with the exit once it ends. */
function startServe(args: readonly string[]) {
  const child = spawn(process.execPath, [binaryPath, "serve", ...args], {
    env: { ...process.env, VERIFIED_GATEWAY_URL: "", VERIFIED_LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Log lines (JSON) with `msg`. */
function logLines(stdout: string, msg: string): { pid: number }[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { pid: number; msg: string })
    .filter((line) => line.msg === msg);
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await delay(50);
  }
}

describe("verified serve --workers", () => {
  it("forks that many workers on one port, and all of them exit on SIGTERM", async () => {
    const url = await closedPortURL();
    const serve = startServe(["--port", new URL(url).port, "--workers", "2"]);
    try {
      await waitUntil(() => logLines(serve.output().stdout, "verified is serving").length === 2, 30_000);
      const response = await fetch(`${url}/healthz`);
      expect(await response.json()).toEqual({ status: "ok" });
      const workers = new Set(logLines(serve.output().stdout, "verified is serving").map((line) => line.pid));
      expect(workers.size).toBe(2);

      serve.child.kill("SIGTERM");
      expect(await serve.exited).toBe(0);
      expect(logLines(serve.output().stdout, "shutting down")).toHaveLength(2);
      // Not a terminal: JSON lines only, for a log collector.
      const lines = serve
        .output()
        .stdout.split("\n")
        .filter((line) => line !== "");
      expect(lines.filter((line) => !line.startsWith("{"))).toEqual([]);
      for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      serve.child.kill("SIGKILL");
    }
  }, 60_000);

  it("exits with 2 when the port is taken, in every worker", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const address = taken.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    const serve = startServe(["--port", String(port), "--workers", "2"]);
    try {
      expect(await serve.exited).toBe(2);
      expect(serve.output().stderr).toContain(`cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
    } finally {
      serve.child.kill("SIGKILL");
      taken.close();
    }
  }, 60_000);
});

const scriptBinary = ["/usr/bin/script", "/bin/script"].find((path) => existsSync(path));

describe.skipIf(scriptBinary === undefined)("verified serve at a terminal (util-linux script)", () => {
  it("prints one human-readable start line and no JSON, and stops on Ctrl-C", async () => {
    const url = await closedPortURL();
    const { VERIFIED_LOG_LEVEL: _level, ...env } = process.env;
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(binaryPath)} serve --port ${new URL(url).port}`;
    // script runs the command on a pseudo-terminal, so stdout.isTTY is true as in a person's shell.
    const child = spawn(scriptBinary ?? "", ["-qec", command, "/dev/null"], {
      env: { ...env, VERIFIED_GATEWAY_URL: "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    const exited = once(child, "exit");
    try {
      await waitUntil(() => output.includes("Ctrl-C stops it."), 30_000);
      const response = await fetch(`${url}/healthz`);
      expect(response.status).toBe(200);
      child.stdin.write("\x03");
      await exited;
      const lines = output.split(/\r?\n/).filter((line) => line.trim() !== "" && line.trim() !== "^C");
      expect(lines).toEqual([
        `verified is serving at ${url} (playground at ${url}/), local model only. Ctrl-C stops it.`,
      ]);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
