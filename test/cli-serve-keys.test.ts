import { describe, expect, it } from "vitest";
import { isLoopbackHost, openServiceWarning } from "../src/cli/commands/serve.js";
import { readServeSettings } from "../src/cli/commands/serve-settings.js";
import { closedPortURL } from "./support/closed-port-url.js";
import { runBinary } from "./support/run-binary.js";
import { startServe, waitUntil } from "./support/serve-process.js";

// Start-up and keys: VERIFIED_API_KEYS set but empty refuses to start; an open service that listens beyond
// loopback says so in one line on stderr.

function settingsOf(env: Record<string, string>) {
  const outcome = readServeSettings(env);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.settings;
}

describe("verified serve with VERIFIED_API_KEYS set but empty", () => {
  it.each(["", "  ", ","])("exits 2 with one line when it is %j", async (value) => {
    const run = await runBinary(["serve", "--port", "0"], {
      env: { VERIFIED_API_KEYS: value, VERIFIED_GATEWAY_URL: "" },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "verified serve: VERIFIED_API_KEYS is set but holds no key; give it comma-separated keys, or unset it to run an open service.\n",
    );
    expect(run.stdout).toBe("");
  });
});

describe("the open-service warning", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.8.0.1", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["::ffff:127.0.0.1", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.20", false],
    ["example.internal", false],
  ])("%s is loopback: %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it("is given for an open service beyond loopback, never for a keyed one or on loopback", () => {
    expect(openServiceWarning(settingsOf({ VERIFIED_HOST: "0.0.0.0" }), 8787)).toBe(
      "VERIFIED_API_KEYS is not set, so anyone who reaches 0.0.0.0:8787 can use every route (gateway models with their own key, /metrics included); set VERIFIED_API_KEYS, or listen on 127.0.0.1.",
    );
    expect(openServiceWarning(settingsOf({ VERIFIED_HOST: "0.0.0.0", VERIFIED_API_KEYS: "k1" }), 8787)).toBe(
      undefined,
    );
    expect(openServiceWarning(settingsOf({ VERIFIED_HOST: "127.0.0.1" }), 8787)).toBe(undefined);
  });

  it.each([
    { host: "0.0.0.0", keys: undefined, workers: "2", warned: true },
    { host: "0.0.0.0", keys: "k1", workers: "1", warned: false },
    { host: "127.0.0.1", keys: undefined, workers: "1", warned: false },
  ])(
    "serve on $host with keys $keys and $workers worker(s): warned $warned, once",
    async ({ host, keys, workers, warned }) => {
      const port = new URL(await closedPortURL()).port;
      const serve = startServe(
        ["--host", host, "--port", port, "--workers", workers],
        keys === undefined ? {} : { VERIFIED_API_KEYS: keys },
      );
      try {
        const serving = () => serve.logLines("verified is serving").length === Number(workers);
        await waitUntil(serving, "serving");
        serve.child.kill("SIGTERM");
        expect(await serve.exited).toBe(0);
        const warnings = serve
          .output()
          .stderr.split("\n")
          .filter((line) => line.startsWith("verified serve: warning:"));
        expect(warnings).toEqual(
          warned
            ? [
                `verified serve: warning: VERIFIED_API_KEYS is not set, so anyone who reaches ${host}:${port} can use every route (gateway models with their own key, /metrics included); set VERIFIED_API_KEYS, or listen on 127.0.0.1.`,
              ]
            : [],
        );
      } finally {
        serve.kill();
      }
    },
    60_000,
  );
});
