import { statSync } from "node:fs";
import type { Command } from "commander";
import pc from "picocolors";

import {
  type CheckNumbers,
  type CreateParams,
  type CreateResult,
  type MatchMode,
  type OffsetUnit,
  type PartialPolicy,
  toWire,
  UngroundedError,
} from "../../client/index.js";
import { CliInputError, readSourceFiles } from "../input/index.js";
import type { CliIo } from "../io.js";
import { type AskOutcome, renderAskResult, runWithErrorLine, shouldUseColor } from "../output/index.js";
import { type ConnectionFlags, createCliClient } from "./connect.js";
import {
  addAnswerFormatOptions,
  addClaimOptions,
  addConnectionOptions,
  addModelOptions,
  checkPartialNeedsText,
} from "./options.js";

/** The flags of `verified ask`. */
export interface AskFlags extends ConnectionFlags {
  source: string[];
  model: string;
  mode?: MatchMode | undefined;
  offsets?: OffsetUnit | undefined;
  checkNumbers?: "source" | "row" | "quote" | undefined;
  retry?: number | undefined;
  answerFormat?: CreateParams["answerFormat"];
  partial?: PartialPolicy | undefined;
  allowUngrounded?: boolean | undefined;
  explain?: boolean | undefined;
  json?: boolean | undefined;
  stream?: boolean | undefined;
}

const DEFAULT_TIMEOUT_SECONDS = 60;

/** Declares `verified ask` on `command`; `done` receives the exit code. */
export function defineAskCommand(command: Command, io: CliIo, done: (code: number) => void): Command {
  command
    .description("Ask a question; get an answer whose every claim is checked against your source files.")
    .argument("[question]", "the question, in quotes (before or after --source)")
    .requiredOption(
      "-s, --source <file...>",
      "source files, after one --source or each after its own; each is one source whose id is its file name (a .json/.jsonl file may hold {id, text} sources)",
    );
  addModelOptions(command);
  addClaimOptions(command);
  addAnswerFormatOptions(command);
  command.option(
    "--allow-ungrounded",
    "when no claim can be grounded, print a flagged plain answer (exit 0) instead of failing (exit 1)",
  );
  command.option(
    "--explain",
    "say why each claim was dropped: the number, name, quotation or marker that failed, or the sources that do support it",
  );
  command.option("--json", "print the raw result as JSON (the HTTP API's field names)");
  command.option(
    "--stream",
    "print each claim as soon as it is checked (with --json: one {event, data} line per event), then the answer",
  );
  addConnectionOptions(command, DEFAULT_TIMEOUT_SECONDS);
  command.addHelpText(
    "after",
    `
Prints the answer with its [source] markers, each citation with its source and range [start, end),
each dropped claim with its reason, and the coverage; with --answer-format text, also each kept sentence
whose words are not all in its sources, with those words. "Grounded" means every claim quotes a source;
it does not mean the question was answered.
Exit codes: 0 answered, 1 no claim could be grounded, 2 bad input, usage, auth or connection error.

Examples:
  verified ask "How long do refunds take?" --source policy.md faq.md
  verified ask --source policy.md --source faq.md "How long do refunds take?" --local
  verified ask "How long do refunds take?" --source policy.md --answer-format text --local`,
  );
  return command.action(async (question: string | undefined, flags: AskFlags, self: Command) => {
    const debug = self.optsWithGlobals<{ debug?: boolean }>().debug === true;
    done(
      await runWithErrorLine("ask", io, debug, () => {
        const split = splitQuestion(question, flags.source, isFile);
        return runAskCommand(split.question, { ...flags, source: split.sources }, io);
      }),
    );
  });
}

/**
 * The question and the source files of `verified ask`. `--source` takes every word after it, so in
 * `ask --source policy.md "question"` the question lands in the source list: with no question argument
 * left, the list's last value is the question when it is not a file (there must be a file before it).
 */
export function splitQuestion(
  question: string | undefined,
  sources: readonly string[],
  isFile: (path: string) => boolean,
): { question: string; sources: string[] } {
  if (question !== undefined) return { question, sources: [...sources] };
  const last = sources.at(-1);
  if (sources.length >= 2 && last !== undefined && !isFile(last)) {
    return { question: last, sources: sources.slice(0, -1) };
  }
  throw new CliInputError(
    'no question given; write it in quotes, before --source or after the files: verified ask "question" --source FILE...',
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Runs `verified ask` and resolves to its exit code; input, service and connection errors reject. */
export async function runAskCommand(question: string, flags: AskFlags, io: CliIo): Promise<number> {
  checkPartialNeedsText(flags);
  const sources = await readSourceFiles(flags.source);
  const params: CreateParams = {
    model: flags.model,
    messages: [{ role: "user", content: question }],
    sources,
    ...(flags.mode === undefined ? {} : { mode: flags.mode }),
    ...(flags.offsets === undefined ? {} : { offsets: flags.offsets }),
    ...(flags.checkNumbers === undefined ? {} : { checkNumbers: flags.checkNumbers satisfies CheckNumbers }),
    ...(flags.retry === undefined ? {} : { retry: flags.retry }),
    ...(flags.answerFormat === undefined ? {} : { answerFormat: flags.answerFormat }),
    ...(flags.partial === undefined ? {} : { partial: flags.partial }),
    ...(flags.allowUngrounded ? { allowUngrounded: true } : {}),
    ...(flags.explain ? { explain: true } : {}),
  };
  const { client, close } = await createCliClient(flags, io.env, DEFAULT_TIMEOUT_SECONDS);
  let outcome: AskOutcome;
  try {
    outcome = {
      kind: "answer",
      result: flags.stream ? await streamAnswer(client, params, flags, io) : await client.create(params),
    };
  } catch (error) {
    if (!(error instanceof UngroundedError)) throw error;
    // The service names its request field; on the command line the switch is the flag.
    const message = error.message.replace("allow_ungrounded", "--allow-ungrounded");
    outcome = { kind: "ungrounded", message, unsupported: error.unsupported };
  } finally {
    await close();
  }

  if (flags.json && flags.stream) {
    if (outcome.kind === "ungrounded") {
      const error = { type: "ungrounded", message: outcome.message, unsupported: outcome.unsupported };
      io.stdout.write(`${JSON.stringify(toWire({ event: "error", data: { error } }))}\n`);
    }
  } else if (flags.json) {
    const body =
      outcome.kind === "answer"
        ? outcome.result
        : { error: { type: "ungrounded", message: outcome.message, unsupported: outcome.unsupported } };
    io.stdout.write(`${JSON.stringify(toWire(body), null, 2)}\n`);
  } else {
    const colors = pc.createColors(shouldUseColor(io.stdout as { isTTY?: boolean }, io.env));
    io.stdout.write(
      renderAskResult(
        outcome,
        sources.map((source) => source.id),
        colors,
      ),
    );
  }
  return outcome.kind === "answer" ? 0 : 1;
}

/**
 * Reads a streamed create, printing each event as it lands: a line per claim (`✓`/`✗`) and per new attempt,
 * or with `--json` one `{event, data}` JSON line (the HTTP names). Resolves with the `done` result.
 */
async function streamAnswer(
  client: Awaited<ReturnType<typeof createCliClient>>["client"],
  params: CreateParams,
  flags: AskFlags,
  io: CliIo,
): Promise<CreateResult> {
  const colors = pc.createColors(shouldUseColor(io.stdout as { isTTY?: boolean }, io.env));
  const stream = client.stream(params);
  for await (const event of stream) {
    if (flags.json) {
      const data =
        event.type === "claim"
          ? event.citation
          : event.type === "unsupported"
            ? event.unsupported
            : event.type === "attempt"
              ? { attempt: event.attempt }
              : event.result;
      io.stdout.write(`${JSON.stringify(toWire({ event: event.type, data }))}\n`);
    } else if (event.type === "claim") {
      const { claim, source, range } = event.citation;
      io.stdout.write(
        `${colors.green("✓")} ${claim} ${colors.dim(`${source} [${range[0]}, ${range[1]})`)}\n`,
      );
    } else if (event.type === "unsupported") {
      io.stdout.write(
        `${colors.red("✗")} ${event.unsupported.claim} ${colors.dim(`(${event.unsupported.reason})`)}\n`,
      );
    } else if (event.type === "attempt") {
      io.stdout.write(colors.dim(`attempt ${event.attempt}: earlier claims may be replaced\n`));
    } else {
      io.stdout.write("\n");
    }
  }
  return stream.finalResult();
}
