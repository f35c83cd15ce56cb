import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { OPERATION_PATHS } from "../api-paths.js";
import type { OffsetUnit } from "../wire/index.js";
import {
  type AnswerCheckFlags,
  defineAskCommand,
  defineEvalCommand,
  defineExtractCommand,
  environmentOnlySettings,
  offsetsOption,
  partialOption,
  runAnswerCheck,
  runCheckCommand,
  type ServeFlags,
} from "./commands/index.js";
import type { CliIo } from "./io.js";

/** The document of `check --help`'s example: one claim whose quote is in its source. */
const checkExample = JSON.stringify({
  sources: [{ id: "policy", text: "Refunds are accepted within 30 days of purchase." }],
  claims: [{ claim: "Refunds take up to 30 days.", quote: "within 30 days", source: "policy" }],
});

/**
 * The package's version, from its package.json: two folders up from this module, whether it runs from
 * `src/cli` or `dist/cli`, in a clone or installed.
 */
export function packageVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}

/** Parses `argv` (without `node` and the script) and runs the command; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name("verified")
    .description(
      "Grounded answers, extraction and evaluation, checked character for character against your sources.",
    )
    .version(packageVersion(), "-V, --version", "print the version and exit")
    .option("--debug", "print stack traces of unexpected errors")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Commander puts its "(Did you mean …?)" on a second line; a usage error stays one line.
      outputError: (text, write) => write(text.replace(/\n(?=.)/g, " ")),
    })
    .showSuggestionAfterError(true);

  program
    .command("check")
    .description(
      "Check claims, fields or a plain answer with citation markers against sources with no model: JSON out.",
    )
    .argument(
      "[file]",
      "a JSON document {sources, claims | answer | fields, messages?, mode?, check_numbers?, offsets?}; stdin when absent",
    )
    .option("--jsonl", "read one document per line and write one result per line")
    .addHelpText(
      "after",
      `
Checks each claim's quote (or each field's value) against the sources, character for character, with no
model and no service, and prints the result as JSON (as POST ${OPERATION_PATHS.check} answers it). An unsupported
claim is a result, not a failure.
With --answer, checks a plain answer (markers such as [1], [policy.md], [^1]) sentence by sentence against
the --source files instead; a source's id is its file name (as for ask), and [n] names the n-th source.
Exit codes: 0 checked (whatever the verdicts), 2 unreadable or malformed input (with --jsonl: any bad line).

Examples:
  echo '${checkExample}' | verified check
  verified check --jsonl claims.jsonl > results.jsonl
  verified check --answer answer.md --source policy.md --source faq.md --explain`,
    )
    .option(
      "--explain",
      "keep each dropped claim's `detail` (the number, name, quotation or marker that failed, or the sources that do support it) and describe it on stderr",
    )
    .option("--answer <file>", "a plain answer with citation markers to check, instead of a JSON document")
    .option(
      "--source <file...>",
      "with --answer: source files, after one --source or each after its own (as for ask)",
    )
    .option("--question <text>", "with --answer: the user's question; its words are context, not new facts")
    .addOption(
      new Option(
        "--mode <mode>",
        "with --answer: quotation matching, strict (boundary-exact) or lenient (ignores case and punctuation)",
      ).choices(["strict", "lenient"]),
    )
    .addOption(
      new Option(
        "--check-numbers [where]",
        "with --answer: numbers in a claim must appear in its supporting source (the default), with `row` in the same table row and column, with `quote` in its support span",
      )
        .choices(["source", "row", "quote"])
        .preset("source"),
    )
    .option("--no-check-numbers", "with --answer: do not check the claims' numbers")
    .addOption(partialOption("--answer"))
    .addOption(offsetsOption())
    .action(
      async (
        file: string | undefined,
        options: { jsonl?: boolean; explain?: boolean; offsets?: OffsetUnit } & Partial<AnswerCheckFlags>,
      ) => {
        const { jsonl, explain, answer, offsets, ...answerOnly } = options;
        if (answer === undefined) {
          const misplaced = Object.keys(answerOnly)[0];
          if (misplaced !== undefined) {
            const flag = `--${misplaced.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
            io.stderr.write(`verified check: ${flag} goes with --answer; a JSON document sets it itself\n`);
            exitCode = 2;
            return;
          }
          const documentOptions = { jsonl: jsonl === true, explain: explain === true };
          exitCode = await runCheckCommand(
            file,
            offsets === undefined ? documentOptions : { ...documentOptions, offsets },
            io,
          );
          return;
        }
        if (file !== undefined || jsonl === true) {
          io.stderr.write(
            "verified check: give either a JSON document (FILE or --jsonl) or --answer with --source files, not both\n",
          );
          exitCode = 2;
          return;
        }
        exitCode = await runAnswerCheck(
          { ...answerOnly, answer, explain: explain === true, ...(offsets === undefined ? {} : { offsets }) },
          io,
        );
      },
    );

  program
    .command("serve")
    .description(
      "Serve the HTTP API (and the playground at /) on the built-in local model and any configured gateway.",
    )
    .option("--host <host>", "address to listen on (env VERIFIED_HOST)", undefined)
    .option("--port <port>", "port to listen on (env VERIFIED_PORT; default 8787)")
    .option(
      "--gateway-url <url>",
      "OpenAI-compatible gateway base URL, including any /v1 (env VERIFIED_GATEWAY_URL)",
    )
    .option(
      "--config <file>",
      "JSON (with comments) file of named gateways and model routes; see docs/configuration.md (env VERIFIED_CONFIG)",
    )
    .option("--workers <n>", "processes sharing the port, via node:cluster (env VERIFIED_WORKERS; default 1)")
    .option(
      "--request-timeout-ms <ms>",
      "a request (headers and body) must arrive within this, else 408 and the connection closes " +
        "(env VERIFIED_REQUEST_TIMEOUT_MS; default 30000)",
    )
    .option(
      "--shutdown-timeout-ms <ms>",
      "on SIGTERM, requests in flight may finish for this long, then get 503 shutting_down " +
        "(env VERIFIED_SHUTDOWN_TIMEOUT_MS; default 25000)",
    )
    .addHelpText("after", serveEnvironmentHelp())
    .action(async (options: ServeFlags) => {
      // Imported on use: Fastify and the gateway cost a second of startup the other commands need not pay.
      const { runServeCommand } = await import("./commands/serve.js");
      exitCode = await runServeCommand(options, io);
    });

  const setExitCode = (code: number) => {
    exitCode = code;
  };
  defineAskCommand(program.command("ask"), io, setExitCode);
  defineExtractCommand(program.command("extract"), io, setExitCode);
  defineEvalCommand(program.command("eval"), io, setExitCode);

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every usage error exits 2, as docs/cli.md promises.
      return error.exitCode === 0 ? 0 : 2;
    }
    const debug = argv.includes("--debug");
    io.stderr.write(
      `verified: ${debug && error instanceof Error ? error.stack : error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  }
  return exitCode;
}

/** The environment-only settings, as a section after `serve --help`'s options. */
function serveEnvironmentHelp(): string {
  const width = Math.max(...environmentOnlySettings.map(([name]) => name.length));
  const lines = environmentOnlySettings.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`);
  return `\nEnvironment only (no flag):\n${lines.join("\n")}\n`;
}
