#!/usr/bin/env node
import type { CliIo } from "./io.js";

const io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
const argv = process.argv.slice(2);

/**
 * `verified check [FILE] [--jsonl]` with nothing else on the line, read without Commander: the check loads
 * only the core and its schemas, so a batch of small documents does not pay for the other commands' start.
 * Anything else (help, other flags, other commands) goes through `runCli`, which parses it in full.
 */
function plainCheckArguments(
  args: readonly string[],
): { file: string | undefined; jsonl: boolean } | undefined {
  if (args[0] !== "check") return undefined;
  let file: string | undefined;
  let jsonl = false;
  for (const arg of args.slice(1)) {
    if (arg === "--jsonl" && !jsonl) jsonl = true;
    else if (!arg.startsWith("-") && file === undefined) file = arg;
    else return undefined;
  }
  return { file, jsonl };
}

async function run(): Promise<number> {
  const check = plainCheckArguments(argv);
  if (check === undefined) {
    const { runCli } = await import("./run-cli.js");
    return runCli(argv, io);
  }
  try {
    const { runCheckCommand } = await import("./commands/check.js");
    return await runCheckCommand(check.file, { jsonl: check.jsonl }, io);
  } catch (error) {
    // As `runCli` reports an unexpected error.
    io.stderr.write(`verified: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}

process.exitCode = await run();
