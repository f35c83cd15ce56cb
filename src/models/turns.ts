import type { Steps } from "../util.js";

// The service's one turn of the event loop, for every piece of work that yields (claim checks, the local
// model, parsing large texts, writing large answers).

// The callers waiting for their turn, first come first served, and whether a release is queued. One release
// per pass of the event loop: `setImmediate` queued inside an immediate callback runs in the next pass.
let waiting: ((() => void) | undefined)[] = [];
let head = 0;
let releaseQueued = false;

function releaseOne(): void {
  const resolve = waiting[head];
  waiting[head] = undefined;
  head += 1;
  // Under steady load the queue may never empty: drop the released half now and then (amortised O(1)), so
  // its memory stays bounded by the callers waiting, not by every turn ever taken.
  if (head >= 1024 && head * 2 >= waiting.length) {
    waiting = waiting.slice(head);
    head = 0;
  }
  if (head < waiting.length) {
    setImmediate(releaseOne);
  } else {
    waiting = [];
    head = 0;
    releaseQueued = false;
  }
  resolve?.();
}

/**
 * One turn of the event loop, shared by the whole process: resolves in a later pass of the event loop than
 * the one that asked, and one waiting caller per pass, in the order they asked. With `setImmediate` alone,
 * every request that yields in a pass runs its next piece in the same next pass, so eight cases of an eval
 * checked at once hold each pass for eight pieces; here a pass runs one piece, then timers and I/O (other
 * requests, `/healthz`) before the next.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!releaseQueued) {
      releaseQueued = true;
      setImmediate(releaseOne);
    }
  });
}

/** Slots the queue holds (waiting callers and released ones not yet dropped); for tests of its bound. */
export function turnQueueSlots(): number {
  return waiting.length;
}

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
