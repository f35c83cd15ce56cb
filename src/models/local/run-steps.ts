import type { Steps } from "../../util.js";
import { nextTurn } from "../turns.js";

/**
 * Runs the steps (src/util.ts) with a turn of the event loop (`nextTurn`) after each; stops when `signal`
 * aborts. `turn` is for tests that count the turns.
 */
export async function runStepsYielding<T>(
  steps: Steps<T>,
  signal?: AbortSignal,
  turn: () => Promise<unknown> = nextTurn,
): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    await turn();
    signal?.throwIfAborted();
  }
}

/** One turn of the event loop: lets I/O callbacks (other requests) run before the caller continues. */
export async function yieldToEventLoop(signal?: AbortSignal): Promise<void> {
  await nextTurn();
  signal?.throwIfAborted();
}
