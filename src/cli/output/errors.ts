import type { Writable } from "node:stream";
import { AuthenticationError, ConnectionError, TimeoutError, VerifiedError } from "../../client/index.js";
import { CliInputError } from "../input/index.js";
import { terminalText } from "../reports/index.js";

/**
 * The one line a command prints for an error that ends it (exit 2): bad input as is, a service error with
 * its code and how to fix it on the command line, anything unexpected by its message. With `debug`, the
 * stack follows on the next lines.
 */
export function describeCommandError(error: unknown, debug: boolean): string {
  const line = oneLine(errorLine(error));
  return debug && error instanceof Error && error.stack ? `${line}\n${error.stack}` : line;
}

function errorLine(error: unknown): string {
  if (error instanceof CliInputError) return error.message;
  if (error instanceof TimeoutError) {
    return "the service did not answer in time; raise --timeout (seconds) for long runs (timeout).";
  }
  if (error instanceof ConnectionError) {
    return `${error.message}. Start the service with \`verified serve\`, point --base-url at it, or run in process with --local (${error.type}).`;
  }
  if (error instanceof AuthenticationError) {
    // The client's own hint names its constructor option; on the command line the flag is what to change.
    const hint = error.message.indexOf(" No API key was sent:");
    const message = hint < 0 ? error.message : error.message.slice(0, hint);
    return `${message} Pass --api-key or set VERIFIED_API_KEY (${error.type}).`;
  }
  if (error instanceof VerifiedError) return `${error.message} (${error.type})`;
  return error instanceof Error ? error.message : String(error);
}

/** One line, control characters written out (a case id or file name from a dataset cannot drive the terminal). */
function oneLine(text: string): string {
  // Split, not `/\s*\n\s*/g`, which rescans a long run of spaces from each of its characters (O(n²)).
  const lines = text.split("\n").map((line) => line.trim());
  return terminalText(lines.filter((line) => line !== "").join(" "));
}

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
