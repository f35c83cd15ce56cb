import type { Command } from "commander";
import pc from "picocolors";
import { type ExtractParams, type MatchMode, type OffsetUnit, toWire } from "../../client/index.js";
import { parseFieldFlags, readSourceFiles } from "../input/index.js";
import type { CliIo } from "../io.js";
import { renderExtractResult, runWithErrorLine, shouldUseColor } from "../output/index.js";
import { type ConnectionFlags, createCliClient } from "./connect.js";
import { addConnectionOptions, addModelOptions } from "./options.js";

/** The flags of `verified extract`. */
export interface ExtractFlags extends ConnectionFlags {
  source: string[];
  field: string[];
  model: string;
  mode?: MatchMode | undefined;
  offsets?: OffsetUnit | undefined;
  json?: boolean | undefined;
}

const DEFAULT_TIMEOUT_SECONDS = 60;

/** Declares `verified extract` on `command`; `done` receives the exit code. */
export function defineExtractCommand(command: Command, io: CliIo, done: (code: number) => void): Command {
  command
    .description("Extract fields from your source files, each a verbatim quote of a source or not found.")
    .requiredOption(
      "-s, --source <file...>",
      "source files; each is one source whose id is its file name (a .json/.jsonl file may hold {id, text} sources)",
    )
    .requiredOption(
      "-f, --field <name=description...>",
      'fields to extract, each name="a short, concrete description of the value"',
    );
  addModelOptions(command);
  command.option("--json", "print the raw result as JSON (the HTTP API's field names)");
  addConnectionOptions(command, DEFAULT_TIMEOUT_SECONDS);
  command.addHelpText(
    "after",
    `
Prints each field, its value and where it was found (source and range [start, end)), then the coverage.
Exit codes: 0 done (whatever was found), 2 bad input, usage, auth or connection error.

Example:
  verified extract --source contract.txt --field party="the customer's company name" --field total="the total amount" --local`,
  );
  return command.action(async (flags: ExtractFlags, self: Command) => {
    const debug = self.optsWithGlobals<{ debug?: boolean }>().debug === true;
    done(await runWithErrorLine("extract", io, debug, () => runExtractCommand(flags, io)));
  });
}

/** Runs `verified extract` and resolves to its exit code; input, service and connection errors reject. */
export async function runExtractCommand(flags: ExtractFlags, io: CliIo): Promise<number> {
  const schema = parseFieldFlags(flags.field);
  const sources = await readSourceFiles(flags.source);
  const params: ExtractParams = {
    model: flags.model,
    sources,
    schema,
    ...(flags.mode === undefined ? {} : { mode: flags.mode }),
    ...(flags.offsets === undefined ? {} : { offsets: flags.offsets }),
  };
  const { client, close } = await createCliClient(flags, io.env, DEFAULT_TIMEOUT_SECONDS);
  try {
    const result = await client.extract(params);
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(toWire(result), null, 2)}\n`);
    } else {
      const colors = pc.createColors(shouldUseColor(io.stdout as { isTTY?: boolean }, io.env));
      io.stdout.write(renderExtractResult(result, colors));
    }
    return 0;
  } finally {
    await close();
  }
}
