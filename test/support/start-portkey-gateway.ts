import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The Portkey version the integration test was written against (the devDependency to pin). */
export const portkeyVersion = "1.15.2";

/** A running Portkey AI Gateway. */
export interface RunningPortkey {
  /** OpenAI-compatible base URL, e.g. http://127.0.0.1:41234/v1: what the service takes as its gateway URL. */
  url: string;
  /** Everything the gateway printed, for a failing test's message. */
  output(): string;
  close(): Promise<void>;
}

/**
 * Preloaded into the Portkey process. Its `start-server.js` serves on every interface on `--port=N`; this
 * makes it listen on 127.0.0.1 only and report the port it got, so `--port=0` gives a free port without a race.
 */
const loopbackPreload = `
import net from "node:net";
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || (typeof args[0] === "string" && /^\\d+$/.test(args[0]))) {
    const callbacks = args.filter((arg) => typeof arg === "function");
    this.once("listening", () => process.stdout.write("\\nPORTKEY_LISTENING " + this.address().port + "\\n"));
    return listen.call(this, { port: Number(args[0]), host: "127.0.0.1" }, ...callbacks);
  }
  return listen.apply(this, args);
};
`;

/** Where `@portkey-ai/gateway`'s Node server is, or undefined when the package is not installed. */
export function findPortkeyServer(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve("@portkey-ai/gateway/package.json");
    return join(dirname(manifest), "build", "start-server.js");
  } catch {
    return undefined;
  }
}

/**
 * The installed Portkey server (undefined when the package is not installed) and a suite title that says why
 * the suite is skipped then.
 */
export function portkeySuite(name: string): { server: string | undefined; title: string } {
  const server = findPortkeyServer();
  const skipReason = `@portkey-ai/gateway is not installed; add it as a devDependency (npm install --save-dev --save-exact @portkey-ai/gateway@${portkeyVersion}) to run this test`;
  return { server, title: server === undefined ? `${name} (skipped: ${skipReason})` : name };
}

/**
 * Starts `@portkey-ai/gateway` (its published Node server, `build/start-server.js --port=0 --headless`) as a
 * child process on 127.0.0.1 and resolves once it listens. Rejects with its output if it exits or does not
 * listen within `timeoutMs`.
 */
export async function startPortkeyGateway(
  serverPath: string,
  timeoutMs = 30_000,
  /** A command prefix such as `taskset -c 1` (benchmarks pin it beside the service). */
  prefix: readonly string[] = [],
): Promise<RunningPortkey> {
  const child = spawn(
    prefix[0] ?? process.execPath,
    [
      ...(prefix.length > 0 ? [...prefix.slice(1), process.execPath] : []),
      "--import",
      `data:text/javascript,${encodeURIComponent(loopbackPreload)}`,
      serverPath,
      "--port=0",
      "--headless",
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_ENV: "production" } },
  );
  let output = "";
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    output += chunk;
  });

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop(child);
      reject(new Error(`Portkey did not listen within ${timeoutMs} ms. Output:\n${output}`));
    }, timeoutMs);
    child.stdout?.on("data", (chunk: string) => {
      output += chunk;
      const match = /PORTKEY_LISTENING (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`Portkey exited (code ${code}, signal ${signal}) before listening. Output:\n${output}`),
      );
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });

  return {
    url: `http://127.0.0.1:${port}/v1`,
    output: () => output,
    close: () => stop(child),
  };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
