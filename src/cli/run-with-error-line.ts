import type { Writable } from "node:stream";
import { describeCommandError } from "./describe-command-error.js";

/**
 * Runs a command's work and resolves to its exit code. An error that escapes it (bad input, a service,
 * auth or connection error) is printed as one line, `verified <name>: <what and how to fix it>`, and
 * exits 2; the stack follows only with `--debug`.
 */
export async function runWithErrorLine(
  name: string,
  io: { stderr: Writable },
  debug: boolean,
  work: () => Promise<number>,
): Promise<number> {
  try {
    return await work();
  } catch (error) {
    io.stderr.write(`verified ${name}: ${describeCommandError(error, debug)}\n`);
    return 2;
  }
}
