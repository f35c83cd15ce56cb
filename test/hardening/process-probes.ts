import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** How many of each kind of libuv resource keep this process alive (`Timeout`, `TCPSocketWrap`…). */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** Polls `check` every 10 ms until it returns true; rejects after `timeoutMs` with `what`. */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let gc: (() => void) | undefined;

/**
 * Runs a full garbage collection. Vitest starts its workers without `--expose-gc`, so the flag is set at run
 * time and `gc` is taken from a fresh context, where V8 installs it once the flag is on.
 */
export function forceGc(): void {
  if (gc === undefined) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
  gc();
}
