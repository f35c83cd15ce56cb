import { type Command, InvalidArgumentError, Option } from "commander";
import { CliInputError } from "../input/index.js";

// The options the ask, extract and eval commands share, defined once so their names, defaults and help
// read the same everywhere.

/** `--offsets <unit>`: the unit of every range printed (model commands and `check`). */
export function offsetsOption(): Option {
  return new Option(
    "--offsets <unit>",
    "count ranges in utf16 code units (default; JavaScript), codepoint (Python's str index) or utf8 bytes",
  ).choices(["utf16", "codepoint", "utf8"]);
}

/** `--model`, `--mode`, `--offsets`: every model command. */
export function addModelOptions(command: Command): Command {
  return command
    .addOption(offsetsOption())
    .addOption(
      new Option("-m, --model <id>", '"local" for the built-in model, or a gateway model id').default(
        "local",
      ),
    )
    .addOption(
      new Option(
        "--mode <mode>",
        "quote matching: strict (boundary-exact) or lenient (ignores case and punctuation)",
      ).choices(["strict", "lenient"]),
    );
}

/** `--check-numbers [where]`, `--retry <n>`: the claim options of ask and eval. */
export function addClaimOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--check-numbers [where]",
        "numbers in a claim must appear in its source, with `row` in the same table row and column, with `quote` in its own quote",
      )
        .choices(["source", "row", "quote"])
        .preset("source"),
    )
    .addOption(
      new Option(
        "--retry <n>",
        "regenerate up to n more times while a claim is unsupported (0 to 5)",
      ).argParser(parseNumberOption({ min: 0, max: 5, integer: true })),
    );
}

/**
 * `--partial <policy>`: what a partially supported sentence becomes (the endpoints' `partial`); `scope` says
 * which flag it goes with (`--answer` for check, `--answer-format text` for ask and eval).
 */
export function partialOption(scope: string): Option {
  return new Option(
    "--partial <policy>",
    `with ${scope}: a claim whose spans lack some of its words is kept with those words listed in \`partial\` (keep, the default) or dropped as partial_support (drop)`,
  ).choices(["keep", "drop"]);
}

/** `--answer-format <format>`, `--partial <policy>`: how ask and eval have the model answer. */
export function addAnswerFormatOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--answer-format <format>",
        "json: claims, each with its quote (the default); text: prose with [source] markers, checked sentence by sentence as check --answer does",
      ).choices(["json", "text"]),
    )
    .addOption(partialOption("--answer-format text"));
}

/**
 * `--partial` applies to prose answers only: without `--answer-format text` it would be ignored, so it is a
 * usage error (exit 2) rather than a silent no-op.
 */
export function checkPartialNeedsText(flags: {
  answerFormat?: string | undefined;
  partial?: string | undefined;
}): void {
  if (flags.partial !== undefined && flags.answerFormat !== "text")
    throw new CliInputError(
      "--partial goes with --answer-format text (claims with quotes are never partial)",
    );
}

/** `--base-url`, `--api-key`, `--local`, `--timeout`: how a command reaches the engine. */
export function addConnectionOptions(command: Command, defaultTimeoutSeconds: number): Command {
  return command
    .option("--base-url <url>", "the service's URL (env VERIFIED_BASE_URL; default http://127.0.0.1:8787)")
    .option("--api-key <key>", "sent as a bearer token (env VERIFIED_API_KEY)")
    .addOption(
      new Option(
        "--local",
        "run the engine in this process with no server; gateway settings come from the VERIFIED_GATEWAY_* variables, as for `verified serve`",
      ).conflicts("baseUrl"),
    )
    .addOption(
      new Option(
        "--timeout <seconds>",
        `seconds to wait for each request (default ${defaultTimeoutSeconds})`,
      ).argParser(parseNumberOption({ min: 1 })),
    );
}

/**
 * A commander argument parser for a number option within `[min, max]` (whole when `integer`); a bad value
 * becomes commander's one-line usage error, so the command exits 2 before doing anything.
 */
export function parseNumberOption(range: {
  min: number;
  max?: number;
  integer?: boolean;
}): (value: string) => number {
  const kind = range.integer ? "a whole number" : "a number";
  const bounds = range.max === undefined ? `of at least ${range.min}` : `from ${range.min} to ${range.max}`;
  return (value) => {
    const parsed = value.trim() === "" ? Number.NaN : Number(value);
    const valid =
      Number.isFinite(parsed) &&
      (!range.integer || Number.isInteger(parsed)) &&
      parsed >= range.min &&
      (range.max === undefined || parsed <= range.max);
    if (!valid) throw new InvalidArgumentError(`Expected ${kind} ${bounds}.`);
    return parsed;
  };
}
