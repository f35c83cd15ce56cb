import type { Writable } from "node:stream";

/** A destination for the logger: `write(line)`, and `flush()` for what is still held. */
export interface BatchedLogStream {
  write(line: string): void;
  flush(): void;
}

/**
 * Gathers the log lines written during one turn of the event loop and hands them to `out` in one write.
 * Pino's default destination instead makes one asynchronous write per line through libuv's thread pool,
 * which cost the service about a sixth of its CPU per small request (`npm run bench -- service-throughput`,
 * `VERIFIED_LOG_LEVEL` info against warn). Lines still held are written when the process exits.
 */
export function createBatchedLogStream(out: Writable): BatchedLogStream {
  let pending = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === "") return;
    const text = pending;
    pending = "";
    out.write(text);
  };
  process.once("exit", flush);
  return {
    write(line) {
      pending += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
