import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Work cut into steps: a generator that yields between bounded pieces of work and returns the result. The
 * local model's ranking is written this way so that the same code runs straight through in tests and the CLI
 * (`runSteps`) and, in the server, gives the event loop a turn between pieces (`runStepsYielding`), so
 * `/healthz` and other requests are answered while a large local request runs.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs every step at once and returns the result. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/** Runs the steps with a turn of the event loop (`setImmediate`) after each; stops when `signal` aborts. */
export async function runStepsYielding<T>(steps: Steps<T>, signal?: AbortSignal): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    await nextTurn();
    signal?.throwIfAborted();
  }
}

/** One turn of the event loop: lets I/O callbacks (other requests) run before the caller continues. */
export async function yieldToEventLoop(signal?: AbortSignal): Promise<void> {
  await nextTurn();
  signal?.throwIfAborted();
}
