import { appendFile, writeFile } from "node:fs/promises";
import { extname } from "node:path";
import { InvalidArgumentError } from "commander";
import { toWire } from "../../client/index.js";
import { CliInputError } from "../input/index.js";
import type { EvalReport } from "./eval-report.js";
import { renderJunitReport } from "./junit.js";
import { renderMarkdownReport } from "./markdown.js";

/** The report formats, chosen by the file's extension. */
export type ReportFormat = "markdown" | "json" | "junit";

const formats: Record<string, ReportFormat> = { ".md": "markdown", ".json": "json", ".xml": "junit" };

/** The format of `--report FILE`; a commander usage error (exit 2, before the run) for another extension. */
export function reportFormat(path: string): ReportFormat {
  const format = formats[extname(path).toLowerCase()];
  if (format === undefined) {
    throw new InvalidArgumentError("The report file must end in .md (Markdown), .json or .xml (JUnit).");
  }
  return format;
}

/**
 * Writes `report` to `path` in the format its extension names. A Markdown report is also appended to the
 * file `$GITHUB_STEP_SUMMARY` names, when that is set, so it shows on the GitHub Actions run page.
 */
export async function writeReport(
  path: string,
  report: EvalReport,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const format = reportFormat(path);
  const text =
    format === "markdown"
      ? renderMarkdownReport(report)
      : format === "json"
        ? renderJsonReport(report)
        : renderJunitReport(report);
  await write(() => writeFile(path, text, "utf8"), path);
  const summary = env.GITHUB_STEP_SUMMARY;
  if (format === "markdown" && summary !== undefined && summary !== "") {
    await write(() => appendFile(summary, `${text}\n`, "utf8"), `${summary} ($GITHUB_STEP_SUMMARY)`);
  }
}

async function write(action: () => Promise<void>, name: string): Promise<void> {
  try {
    await action();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliInputError(`cannot write ${name}: ${code ?? String(error)}`);
  }
}

/**
 * The JSON report, in the HTTP API's snake_case like every JSON the command line prints: the run, the gate
 * (`min_coverage`, `passed`), the aggregate, usage, and every case in dataset order with its `index`.
 */
export function renderJsonReport(report: EvalReport): string {
  const cases = report.cases.map(({ label: _label, ...entry }) => entry);
  return `${JSON.stringify(toWire({ ...report, cases }), null, 2)}\n`;
}
