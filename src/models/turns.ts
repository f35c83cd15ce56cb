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
