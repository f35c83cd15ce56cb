import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type { GatewayCommand, GatewayEvent, GatewayReply } from "./instant-gateway.js";

/** The instant gateway running in its own process. */
export interface GatewayProcess {
  /** Base URL with `/v1`, as the service takes it (`VERIFIED_GATEWAY_URL`). */
  url: string;
  /** `{url}/chat/completions`, for calling it directly. */
  completionsURL: string;
  /** Replaces the table of replies, by model. */
  configure(replies: Record<string, GatewayReply>): Promise<void>;
  /** Calls answered and the most in flight at once since the last reset. */
  stats(reset?: boolean): Promise<{ calls: number; maxInFlight: number; unknownModels: number }>;
  stop(): Promise<void>;
}

const entry = fileURLToPath(new URL("./instant-gateway.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Starts bench/support/instant-gateway.ts under tsx, behind `prefix` (e.g. `taskset -c 0`). */
export async function startGatewayProcess(prefix: readonly string[] = []): Promise<GatewayProcess> {
  const command = [...prefix, process.execPath, "--import", "tsx", entry];
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child: ChildProcess = spawn(command[0] as string, command.slice(1), {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = <T extends GatewayEvent["type"]>(type: T) =>
    new Promise<Extract<GatewayEvent, { type: T }>>((resolve, reject) => {
      const onMessage = (event: GatewayEvent) => {
        if (event.type !== type) return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        resolve(event as Extract<GatewayEvent, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`the instant gateway exited (${code})`));
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  const sendCommand = (message: GatewayCommand) => child.send(message);
  const { port } = await next("listening");
  const url = `http://127.0.0.1:${port}/v1`;
  return {
    url,
    completionsURL: `${url}/chat/completions`,
    async configure(replies) {
      const configured = next("configured");
      sendCommand({ type: "configure", replies });
      await configured;
    },
    async stats(reset = false) {
      const stats = next("stats");
      sendCommand({ type: "stats", reset });
      const { calls, maxInFlight, unknownModels } = await stats;
      return { calls, maxInFlight, unknownModels };
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}
