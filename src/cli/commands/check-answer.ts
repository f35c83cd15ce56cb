import type { Source } from "../../client/index.js";
import { CliInputError, readInputFile, readSourceFiles } from "../input/index.js";
import type { CheckIo } from "./check.js";
import { checkDocument, explainDropped } from "./check-document.js";

/** The flags of `verified check --answer FILE --source FILE…`. */
export interface AnswerCheckFlags {
  answer: string;
  source?: string[];
  question?: string;
  mode?: "strict" | "lenient";
  checkNumbers?: boolean | "source" | "row" | "quote";
  explain?: boolean;
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
  let answer: string;
  let sources: Source[];
  try {
    answer = await readInputFile(name);
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
  const explain = flags.explain === true;
  const outcome = checkDocument(document, explain);
  if (!outcome.ok) {
    io.stderr.write(`verified check: ${name}: ${outcome.message}\n`);
    return 2;
  }
  if (explain)
    for (const line of explainDropped(outcome.result)) io.stderr.write(`verified check: ${name}: ${line}\n`);
  io.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
  return 0;
}
