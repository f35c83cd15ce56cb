import { type Command, Option } from "commander";
import pc from "picocolors";
import type { EvalAllParams, MatchMode, OffsetUnit, PartialPolicy } from "../../client/index.js";
import { CliInputError, readDataset } from "../input/index.js";
import type { CliIo } from "../io.js";
import { runWithErrorLine, shouldUseColor } from "../output/index.js";
import {
  buildEvalReport,
  compareWithBaseline,
  createEvalProgress,
  readBaselineReport,
  renderEvalSummary,
  renderJsonReport,
  reportFormat,
  withBaseline,
  writeReport,
} from "../reports/index.js";
import { type ConnectionFlags, createCliClient } from "./connect.js";
import {
  addAnswerFormatOptions,
  addClaimOptions,
  addConnectionOptions,
  addModelOptions,
  checkPartialNeedsText,
  parseNumberOption,
} from "./options.js";

/** The flags of `verified eval`. */
export interface EvalFlags extends ConnectionFlags {
  model: string;
  mode?: MatchMode | undefined;
  offsets?: OffsetUnit | undefined;
  checkNumbers?: "source" | "row" | "quote" | undefined;
  retry?: number | undefined;
  answerFormat?: EvalAllParams["answerFormat"];
  partial?: PartialPolicy | undefined;
  explain?: boolean | undefined;
  minCoverage: number;
  /** The correctness gate: the lowest correct_rate that passes; unset, no gate. */
  minCorrect?: number | undefined;
  report: string[];
  json?: boolean | undefined;
  /** A JSON report of an earlier run to compare with, case by case. */
  baseline?: string | undefined;
  failOnRegression?: boolean | undefined;
  regressionTolerance: number;
}

// A 200-case page runs many model calls; with a remote model a minute per request is too little.
const DEFAULT_TIMEOUT_SECONDS = 600;

/** Declares `verified eval` on `command`; `done` receives the exit code. */
export function defineEvalCommand(command: Command, io: CliIo, done: (code: number) => void): Command {
  command
    .description(
      "Score a dataset's groundedness (and correctness, for cases with expected) and gate on it: exit 1 when coverage_mean is below --min-coverage or correct_rate below --min-correct.",
    )
    .argument(
      "<dataset>",
      'a JSON file {"cases": [...]} or an array of cases, or JSONL with one case per line; each case {messages, sources, id?, expected?}',
    );
  addModelOptions(command);
  addClaimOptions(command);
  addAnswerFormatOptions(command);
  command
    .addOption(
      new Option("--min-coverage <fraction>", "the gate: the lowest coverage_mean that passes, 0 to 1")
        .default(0)
        .argParser(parseNumberOption({ min: 0, max: 1 })),
    )
    .addOption(
      new Option(
        "--min-correct <fraction>",
        "a second gate: the lowest correct_rate (correct cases over cases with expected) that passes, 0 to 1",
      ).argParser(parseNumberOption({ min: 0, max: 1 })),
    )
    .addOption(
      new Option("--report <file>", "also write a report: .md (Markdown), .json or .xml (JUnit); repeatable")
        .default([])
        .argParser((value: string, previous: string[]) => {
          reportFormat(value);
          return [...previous, value];
        }),
    )
    .option(
      "--explain",
      "in the reports, say why each listed claim was dropped: the number, name, quotation or marker that failed",
    )
    .option("--json", "print the JSON report on stdout instead of the summary")
    .option(
      "--baseline <report.json>",
      "compare with an earlier run's JSON report, case by case (by id, else by position)",
    )
    .option(
      "--fail-on-regression",
      "with --baseline: exit 1 when a case lost more coverage than the tolerance",
    )
    .addOption(
      new Option(
        "--regression-tolerance <fraction>",
        "the coverage a case may lose against the baseline before it counts as regressed, 0 to 1",
      )
        .default(0)
        .argParser(parseNumberOption({ min: 0, max: 1 })),
    );
  addConnectionOptions(command, DEFAULT_TIMEOUT_SECONDS);
  command.addHelpText(
    "after",
    `
Shows progress on stderr, then a summary: n, errored, coverage_mean, unsupported_rate, correct_rate (when
cases carry "expected"), model calls, tokens, the ten lowest cases and the cases not correct. A case is
correct when one of its expected answers occurs in a grounded claim (checked by code, not by a model).
A Markdown report is also appended to $GITHUB_STEP_SUMMARY when set. A case fails in the JUnit report
exactly when it counts against a gate that failed, so a passing run writes failures="0".
With --baseline, also lists the cases whose coverage changed (regressed ones first) and the claims that
newly failed; the Markdown report puts them first. Reports name the claims the lowest cases dropped.
Exit codes: 0 coverage_mean >= --min-coverage (default 0: report only) and correct_rate >= --min-correct
when given, 1 below either (or every case errored, or with --fail-on-regression a case regressed or is no
longer correct), 2 bad input, usage, auth or connection error.

Example:
  verified eval --local dataset.jsonl --min-coverage 0.8 --report report.md --report junit.xml
  verified eval --local dataset.jsonl --min-correct 0.9 --report junit.xml
  verified eval --local dataset.jsonl --baseline main-report.json --fail-on-regression --report now.json`,
  );
  return command.action(async (dataset: string, flags: EvalFlags, self: Command) => {
    const debug = self.optsWithGlobals<{ debug?: boolean }>().debug === true;
    done(await runWithErrorLine("eval", io, debug, () => runEvalCommand(dataset, flags, io)));
  });
}

/** Runs `verified eval` and resolves to its exit code; input, service and connection errors reject. */
export async function runEvalCommand(dataset: string, flags: EvalFlags, io: CliIo): Promise<number> {
  checkPartialNeedsText(flags);
  if (flags.failOnRegression && flags.baseline === undefined) {
    throw new CliInputError("--fail-on-regression needs --baseline <report.json> to compare with.");
  }
  const cases = await readDataset(dataset);
  if (flags.minCorrect !== undefined && !cases.some((entry) => entry.expected !== undefined)) {
    throw new CliInputError(
      `--min-correct gates on correct_rate, but no case in ${dataset} has "expected"; give cases "expected": "answer" (or a list).`,
    );
  }
  // Read before the run, so a bad baseline fails in a second rather than after a long eval.
  const baseline = flags.baseline === undefined ? undefined : await readBaselineReport(flags.baseline);
  const { client, close } = await createCliClient(flags, io.env, DEFAULT_TIMEOUT_SECONDS);
  const progress = createEvalProgress(io.stderr, cases.length);
  const params: EvalAllParams = {
    model: flags.model,
    cases,
    onProgress: (update) => progress.update(update),
    // Each case's dropped claims feed the reports and the baseline comparison.
    details: true,
    ...(flags.mode === undefined ? {} : { mode: flags.mode }),
    ...(flags.offsets === undefined ? {} : { offsets: flags.offsets }),
    ...(flags.checkNumbers === undefined ? {} : { checkNumbers: flags.checkNumbers }),
    ...(flags.retry === undefined ? {} : { retry: flags.retry }),
    ...(flags.answerFormat === undefined ? {} : { answerFormat: flags.answerFormat }),
    ...(flags.partial === undefined ? {} : { partial: flags.partial }),
    ...(flags.explain ? { explain: true } : {}),
  };
  let result: Awaited<ReturnType<typeof client.evalAll>>;
  try {
    result = await client.evalAll(params);
  } finally {
    progress.stop();
    await close();
  }

  const built = buildEvalReport(result, {
    dataset,
    model: flags.model,
    mode: flags.mode ?? "strict",
    minCoverage: flags.minCoverage,
    ...(flags.minCorrect === undefined ? {} : { minCorrect: flags.minCorrect }),
  });
  const report =
    baseline === undefined || flags.baseline === undefined
      ? built
      : withBaseline(
          built,
          compareWithBaseline(built.cases, baseline, {
            file: flags.baseline,
            tolerance: flags.regressionTolerance,
            failOnRegression: flags.failOnRegression === true,
          }),
        );
  if (flags.json) {
    io.stdout.write(renderJsonReport(report));
  } else {
    const colors = pc.createColors(shouldUseColor(io.stdout as { isTTY?: boolean }, io.env));
    io.stdout.write(renderEvalSummary(report, colors));
  }
  for (const path of flags.report) await writeReport(path, report, io.env);
  return report.passed ? 0 : 1;
}
