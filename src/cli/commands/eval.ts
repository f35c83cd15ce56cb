import { type Command, Option } from "commander";
import pc from "picocolors";
import type { EvalAllParams, MatchMode } from "../../client/index.js";
import { readDataset } from "../input/index.js";
import type { CliIo } from "../io.js";
import { runWithErrorLine, shouldUseColor } from "../output/index.js";
import {
  buildEvalReport,
  createEvalProgress,
  renderEvalSummary,
  renderJsonReport,
  reportFormat,
  writeReport,
} from "../reports/index.js";
import { type ConnectionFlags, createCliClient } from "./connect.js";
import { addClaimOptions, addConnectionOptions, addModelOptions, parseNumberOption } from "./options.js";

/** The flags of `verified eval`. */
export interface EvalFlags extends ConnectionFlags {
  model: string;
  mode?: MatchMode | undefined;
  checkNumbers?: "source" | "row" | undefined;
  retry?: number | undefined;
  minCoverage: number;
  report: string[];
  json?: boolean | undefined;
}

// A 200-case page runs many model calls; with a remote model a minute per request is too little.
const DEFAULT_TIMEOUT_SECONDS = 600;

/** Declares `verified eval` on `command`; `done` receives the exit code. */
export function defineEvalCommand(command: Command, io: CliIo, done: (code: number) => void): Command {
  command
    .description(
      "Score a dataset's groundedness and gate on it: exit 1 when coverage_mean is below --min-coverage.",
    )
    .argument(
      "<dataset>",
      'a JSON file {"cases": [...]} or an array of cases, or JSONL with one case per line; each case {messages, sources, id?}',
    );
  addModelOptions(command);
  addClaimOptions(command);
  command
    .addOption(
      new Option("--min-coverage <fraction>", "the gate: the lowest coverage_mean that passes, 0 to 1")
        .default(0)
        .argParser(parseNumberOption({ min: 0, max: 1 })),
    )
    .addOption(
      new Option("--report <file>", "also write a report: .md (Markdown), .json or .xml (JUnit); repeatable")
        .default([])
        .argParser((value: string, previous: string[]) => {
          reportFormat(value);
          return [...previous, value];
        }),
    )
    .option("--json", "print the JSON report on stdout instead of the summary");
  addConnectionOptions(command, DEFAULT_TIMEOUT_SECONDS);
  command.addHelpText(
    "after",
    `
Shows progress on stderr, then a summary: n, errored, coverage_mean, unsupported_rate, model calls,
tokens and the ten lowest cases. A Markdown report is also appended to $GITHUB_STEP_SUMMARY when set.
Exit codes: 0 coverage_mean >= --min-coverage (default 0: report only), 1 below it (or every case
errored), 2 bad input, usage, auth or connection error.

Example:
  verified eval --local dataset.jsonl --min-coverage 0.8 --report report.md --report junit.xml`,
  );
  return command.action(async (dataset: string, flags: EvalFlags, self: Command) => {
    const debug = self.optsWithGlobals<{ debug?: boolean }>().debug === true;
    done(await runWithErrorLine("eval", io, debug, () => runEvalCommand(dataset, flags, io)));
  });
}

/** Runs `verified eval` and resolves to its exit code; input, service and connection errors reject. */
export async function runEvalCommand(dataset: string, flags: EvalFlags, io: CliIo): Promise<number> {
  const cases = await readDataset(dataset);
  const { client, close } = await createCliClient(flags, io.env, DEFAULT_TIMEOUT_SECONDS);
  const progress = createEvalProgress(io.stderr, cases.length);
  const params: EvalAllParams = {
    model: flags.model,
    cases,
    onProgress: (update) => progress.update(update),
    ...(flags.mode === undefined ? {} : { mode: flags.mode }),
    ...(flags.checkNumbers === undefined ? {} : { checkNumbers: flags.checkNumbers }),
    ...(flags.retry === undefined ? {} : { retry: flags.retry }),
  };
  let result: Awaited<ReturnType<typeof client.evalAll>>;
  try {
    result = await client.evalAll(params);
  } finally {
    progress.stop();
    await close();
  }

  const report = buildEvalReport(result, {
    dataset,
    model: flags.model,
    mode: flags.mode ?? "strict",
    minCoverage: flags.minCoverage,
  });
  if (flags.json) {
    io.stdout.write(renderJsonReport(report));
  } else {
    const colors = pc.createColors(shouldUseColor(io.stdout as { isTTY?: boolean }, io.env));
    io.stdout.write(renderEvalSummary(report, colors));
  }
  for (const path of flags.report) await writeReport(path, report, io.env);
  return report.passed ? 0 : 1;
}
