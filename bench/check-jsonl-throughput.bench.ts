// Throughput of `verified check --jsonl` on a large mixed corpus, including process start: 12,000 documents
// generated from the table and span benchmarks' data (../shared/data): each table cell as a `check_numbers:
// "row"` claim quoting its row label, each span as a strict and as a lenient claim with a sentence around it.
// The built CLI (`npm run build` first) reads the corpus from a file and writes to a pipe this process
// drains; every output line is checked to be a result, not an error. Median of several runs.
//   npm run bench -- check-jsonl

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import { formatCount, median } from "./support/statistics.js";

const DOCUMENTS = 12_000;
const RUNS = 5;

function readLines<T>(path: string): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

function corpus(cellsFile: string, spansFile: string): string {
  const cells = readLines<{ table_markdown: string; row_label: string; column: string; value: string }>(
    cellsFile,
  );
  const spans = readLines<{ context: string; answer: string }>(spansFile);
  const documents: string[] = [];
  for (let index = 0; documents.length < DOCUMENTS; index += 1) {
    const cell = cells[index % cells.length];
    if (cell !== undefined && cell.row_label.trim() !== "") {
      documents.push(
        JSON.stringify({
          sources: [{ id: "table", text: cell.table_markdown }],
          claims: [
            {
              claim: `The ${cell.row_label} for ${cell.column} was ${cell.value}.`,
              quote: cell.row_label,
              source: "table",
            },
          ],
          check_numbers: "row",
        }),
      );
    }
    const span = spans[index % spans.length];
    if (span !== undefined) {
      for (const mode of ["strict", "lenient"] as const) {
        documents.push(
          JSON.stringify({
            sources: [{ id: "context", text: span.context }],
            claims: [{ claim: `The text says ${span.answer}.`, quote: span.answer, source: "context" }],
            mode,
            check_numbers: true,
          }),
        );
      }
    }
  }
  return `${documents.slice(0, DOCUMENTS).join("\n")}\n`;
}

// Runs the CLI once; resolves to the wall time in ms, after checking every output line.
function runOnce(cli: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, "check", "--jsonl", file], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let lines = 0;
    let errors = 0;
    let rest = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const text = rest + chunk;
      const parts = text.split("\n");
      rest = parts.pop() ?? "";
      for (const line of parts) {
        lines += 1;
        if (line.startsWith('{"error"')) errors += 1;
      }
    });
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) => {
      const elapsed = performance.now() - started;
      if (code !== 0 || errors > 0 || lines !== DOCUMENTS) {
        reject(new Error(`check --jsonl: exit ${code}, ${lines} lines, ${errors} errors`));
      } else resolve(elapsed);
    });
  });
}

/** Prints documents per second through `verified check --jsonl`, process start included. */
export default async function run(): Promise<void> {
  const cellsFile = findBenchData("table_cells.jsonl");
  const spansFile = findBenchData("spans.jsonl");
  const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
  if (cellsFile === undefined || spansFile === undefined) {
    console.log(missingBenchData(cellsFile === undefined ? "table_cells.jsonl" : "spans.jsonl"));
    return;
  }
  if (!existsSync(cli)) throw new Error("dist/cli/main.js is missing: run `npm run build` first");
  const directory = mkdtempSync(join(tmpdir(), "verified-jsonl-"));
  try {
    const file = join(directory, "corpus.jsonl");
    const text = corpus(cellsFile, spansFile);
    writeFileSync(file, text);
    const loadBefore = loadavg()[0] ?? 0;
    await runOnce(cli, file);
    const times: number[] = [];
    for (let index = 0; index < RUNS; index += 1) times.push(await runOnce(cli, file));
    const ms = median(times);
    console.log(
      `${formatCount(DOCUMENTS)} documents (${(text.length / 1e6).toFixed(1)} MB: table cells in row mode, spans in ` +
        `strict and lenient mode), median of ${RUNS} runs after one warm-up; ${cpus().length} CPUs, load average ` +
        `${loadBefore.toFixed(1)} before the run.\n`,
    );
    console.log(`| wall time per run, process start included | documents/s |`);
    console.log("|---|---|");
    console.log(`| ${(ms / 1000).toFixed(2)} s | ${formatCount((DOCUMENTS / ms) * 1000)} |`);
    console.log("\nGoal: at least 10,000 documents/s.");
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
