import { createReadStream, readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import type { Source } from "../../client/index.js";
import type { OffsetUnit } from "../../wire/index.js";
import type { ParsedJson } from "../input/index.js";
import { checkDocument, explainMisses } from "./check-document.js";
import { LineSplitter, RecentSources } from "./jsonl-batch.js";

/** Where the command reads and writes; injected so tests can drive it in process. */
export interface CheckIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** Runs `verified check [FILE] [--jsonl]` and resolves to the exit code (0 ok, 2 on a malformed document). */
export async function runCheckCommand(
  file: string | undefined,
  options: { jsonl?: boolean; explain?: boolean; offsets?: OffsetUnit },
  io: CheckIo,
): Promise<number> {
  const name = file ?? "stdin";
  const explain = options.explain === true;
  if (options.jsonl) return runJsonl(file, name, io, explain, options.offsets);
  let text: string;
  try {
    text = file === undefined ? await readAll(io.stdin) : readFileSync(file, "utf8");
  } catch (error) {
    io.stderr.write(
      `verified check: cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`,
    );
    return 2;
  }
  const parsed = await parseDocument(text, 1);
  if (!parsed.ok) {
    io.stderr.write(`verified check: ${name}: line ${parsed.line}: ${parsed.message}\n`);
    return 2;
  }
  const outcome = checkDocument(parsed.value, explain, undefined, options.offsets);
  if (!outcome.ok) {
    io.stderr.write(`verified check: ${name}: line 1: ${outcome.message}\n`);
    return 2;
  }
  if (explain)
    for (const line of explainMisses(outcome.result)) io.stderr.write(`verified check: ${name}: ${line}\n`);
  io.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
  return 0;
}

/** The flags of `verified check --answer FILE --source FILE…`. */
export interface AnswerCheckFlags {
  answer: string;
  source?: string[];
  question?: string;
  mode?: "strict" | "lenient";
  checkNumbers?: boolean | "source" | "row" | "quote";
  partial?: "keep" | "drop";
  explain?: boolean;
  offsets?: OffsetUnit;
}

/**
 * Runs `verified check --answer FILE --source FILE…`: checks a plain answer with citation markers against
 * the source files (read as `ask` reads them: a file's id is its file name, `[n]` names the n-th source), as
 * `POST /v1/verified/check` does with `answer`, and prints the result as JSON. Resolves to the exit code (0
 * checked, 2 unreadable or malformed input).
 */
export async function runAnswerCheck(flags: AnswerCheckFlags, io: CheckIo): Promise<number> {
  const name = flags.answer;
  if ((flags.source ?? []).length === 0) {
    io.stderr.write("verified check: --answer needs at least one --source FILE\n");
    return 2;
  }
  // Loaded here, as `parseDocument` loads it: a batch of JSON documents never needs the file readers.
  const { CliInputError, readInputFile, readSourceFiles } = await import("../input/index.js");
  let answer: string;
  let sources: Source[];
  try {
    answer = await readInputFile(name, true);
    sources = await readSourceFiles(flags.source ?? []);
  } catch (error) {
    if (!(error instanceof CliInputError)) throw error;
    io.stderr.write(`verified check: ${error.message}\n`);
    return 2;
  }
  const document: Record<string, unknown> = {
    sources,
    answer,
  };
  if (flags.question !== undefined) document.messages = [{ role: "user", content: flags.question }];
  if (flags.mode !== undefined) document.mode = flags.mode;
  if (flags.checkNumbers !== undefined) document.check_numbers = flags.checkNumbers;
  if (flags.partial !== undefined) document.partial = flags.partial;
  if (flags.offsets !== undefined) document.offsets = flags.offsets;
  const explain = flags.explain === true;
  const outcome = checkDocument(document, explain);
  if (!outcome.ok) {
    io.stderr.write(`verified check: ${name}: ${outcome.message}\n`);
    return 2;
  }
  if (explain)
    for (const line of explainMisses(outcome.result)) io.stderr.write(`verified check: ${name}: ${line}\n`);
  io.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
  return 0;
}

/**
 * `JSON.parse`, and only when that fails the input module's parser that names the line and the problem:
 * it brings a JSON diagnoser and the dataset readers, which a run of good documents need not load.
 */
async function parseDocument(text: string, line: number): Promise<ParsedJson> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const { parseJsonDocument } = await import("../input/index.js");
    return parseJsonDocument(text, line);
  }
}

/**
 * Reads one document per line and writes one result per line. A chunk's results go out in one write: a
 * batch of small documents costs one system call per chunk read, not one per document, while a caller
 * streaming lines in still gets each chunk's answers as soon as it is read.
 */
async function runJsonl(
  file: string | undefined,
  name: string,
  io: CheckIo,
  explain: boolean,
  offsets: OffsetUnit | undefined,
): Promise<number> {
  const input: Readable = file === undefined ? io.stdin : createReadStream(file, { highWaterMark: 1 << 18 });
  const splitter = new LineSplitter();
  const recent = new RecentSources();
  let lineNumber = 0;
  let failed = false;
  let output = "";
  const answer = (parsed: ParsedJson): void => {
    const outcome = parsed.ok
      ? checkDocument(parsed.value, explain, recent, offsets)
      : { ok: false as const, param: undefined, message: parsed.message };
    if (outcome.ok) {
      if (explain) {
        for (const why of explainMisses(outcome.result))
          io.stderr.write(`verified check: ${name}: line ${lineNumber}: ${why}\n`);
      }
      output += `${JSON.stringify(outcome.result)}\n`;
      return;
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
    output += `${JSON.stringify({ error })}\n`;
  };
  const answerLines = async (lines: readonly string[]): Promise<void> => {
    for (const line of lines) {
      lineNumber += 1;
      if (line.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        answer(await parseDocument(line, lineNumber));
        continue;
      }
      answer({ ok: true, value });
    }
    if (output !== "") io.stdout.write(output);
    output = "";
  };
  try {
    input.setEncoding("utf8");
    for await (const chunk of input) await answerLines(splitter.push(chunk as string));
    await answerLines(splitter.end());
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
