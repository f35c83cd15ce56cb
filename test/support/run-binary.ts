import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built `verified` binary (built by `npm test`'s pretest step). */
export const binaryPath = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/** What a finished process printed and how it exited. */
export interface BinaryRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the real `verified` binary with arguments, optional stdin and extra environment. */
export function runBinary(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string>; cwd?: string } = {},
): Promise<BinaryRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binaryPath, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}
