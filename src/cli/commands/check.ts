import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { parseJsonDocument } from "../input/index.js";
import { checkDocument, explainDropped } from "./check-document.js";

/** Where the command reads and writes; injected so tests can drive it in process. */
export interface CheckIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** Runs `verified check [FILE] [--jsonl]` and resolves to the exit code (0 ok, 2 on a malformed document). */
export async function runCheckCommand(
  file: string | undefined,
  options: { jsonl?: boolean; explain?: boolean },
  io: CheckIo,
): Promise<number> {
  const name = file ?? "stdin";
  const explain = options.explain === true;
  if (options.jsonl) return runJsonl(file, name, io, explain);
  let text: string;
  try {
    text = file === undefined ? await readAll(io.stdin) : readFileSync(file, "utf8");
  } catch (error) {
    io.stderr.write(
      `verified check: cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`,
    );
    return 2;
  }
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) {
    io.stderr.write(`verified check: ${name}: line ${parsed.line}: ${parsed.message}\n`);
    return 2;
  }
  const outcome = checkDocument(parsed.value, explain);
  if (!outcome.ok) {
    io.stderr.write(`verified check: ${name}: line 1: ${outcome.message}\n`);
    return 2;
  }
  if (explain)
    for (const line of explainDropped(outcome.result)) io.stderr.write(`verified check: ${name}: ${line}\n`);
  io.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
  return 0;
}

async function runJsonl(
  file: string | undefined,
  name: string,
  io: CheckIo,
  explain: boolean,
): Promise<number> {
  let input: Readable = io.stdin;
  if (file !== undefined) {
    const { createReadStream } = await import("node:fs");
    input = createReadStream(file, "utf8");
  }
  let lineNumber = 0;
  let failed = false;
  try {
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      lineNumber += 1;
      if (line.trim() === "") continue;
      const parsed = parseJsonDocument(line, lineNumber);
      const outcome = parsed.ok
        ? checkDocument(parsed.value, explain)
        : { ok: false as const, param: undefined, message: parsed.message };
      if (outcome.ok) {
        if (explain) {
          for (const why of explainDropped(outcome.result))
            io.stderr.write(`verified check: ${name}: line ${lineNumber}: ${why}\n`);
        }
        io.stdout.write(`${JSON.stringify(outcome.result)}\n`);
        continue;
      }
      failed = true;
      io.stderr.write(`verified check: ${name}: line ${lineNumber}: ${outcome.message}\n`);
      const error: Record<string, unknown> = {
        type: "invalid_request",
        code: "invalid_request",
        message: outcome.message,
        line: lineNumber,
      };
      if (outcome.param !== undefined) error.param = outcome.param;
      io.stdout.write(`${JSON.stringify({ error })}\n`);
    }
  } catch (error) {
    io.stderr.write(
      `verified check: cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`,
    );
    return 2;
  }
  return failed ? 2 : 0;
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
