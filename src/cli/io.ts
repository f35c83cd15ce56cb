import type { Readable, Writable } from "node:stream";

/** The process edges the command line uses; `main.ts` passes the real ones. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}
