// Speed of the whole claims check (`verifyClaims`): 100 claims against sources totalling 100,000 and
// 200,000 characters, in strict, lenient and row mode. Sources are generated from a fixed seed: prose
// paragraphs with numbers, and markdown tables so row mode reads cells. Each request prepares its sources
// afresh, as the service does, so per-source normalisation is timed too. Results are checked before timing.

import { cpus, loadavg } from "node:os";
import { verifyClaims } from "../src/core/claims/verify-claims.js";
import type { CandidateClaim, ClaimCheckOptions, ClaimsResult, Source } from "../src/core/types.js";
import { generateSentence, generateTable, type TableRow, tableColumns } from "./support/generate-report.js";
import { seededGenerator } from "./support/seeded-generator.js";

const RUNS = 21;
// Row mode runs the most code: after 20 warm-up runs its first timed ones still paid for V8 compiling it on
// a background thread (process CPU above wall time); 100 leave the timed runs measuring the check.
const WARMUP_RUNS = 100;
const SOURCE_COUNT = 10;
const CLAIM_COUNT = 100;

interface Corpus {
  sources: Source[];
  sentences: { source: string; text: string }[];
  rows: { source: string; rows: TableRow[] }[];
}

// Builds SOURCE_COUNT sources of about totalChars / SOURCE_COUNT characters each.
function corpus(totalChars: number, seed: number): Corpus {
  const gen = seededGenerator(seed);
  const sources: Source[] = [];
  const sentences: Corpus["sentences"] = [];
  const tables: Corpus["rows"] = [];
  for (let index = 0; index < SOURCE_COUNT; index += 1) {
    const id = `doc-${index}`;
    let station = 0;
    const parts: string[] = [`Annual report ${index + 1}.`];
    let length = parts[0]?.length ?? 0;
    while (length < totalChars / SOURCE_COUNT) {
      let block: string;
      if (gen.int(0, 3) === 0) {
        const rows = generateTable(gen, station + 1);
        station += rows.length;
        tables.push({ source: id, rows });
        block = [
          `| Station | ${tableColumns.join(" | ")} |`,
          `| --- | ${tableColumns.map(() => "---:").join(" | ")} |`,
          ...rows.map((row) => row.line),
        ].join("\n");
      } else {
        const paragraph = Array.from({ length: gen.int(3, 6) }, () => generateSentence(gen));
        for (const text of paragraph) sentences.push({ source: id, text });
        block = paragraph.join(" ");
      }
      parts.push(block);
      length += block.length + 2;
    }
    sources.push({ id, text: parts.join("\n\n") });
  }
  return { sources, sentences, rows: tables };
}

interface Expected {
  citations: number;
  number_not_found: number;
  quote_not_found: number;
  unknown_source: number;
}

interface Workload {
  claims: CandidateClaim[];
  expected: Record<string, Expected>;
}

const NOT_IN_ANY_SOURCE = "987,654,321.125";

// 100 claims: 50 prose and 30 table cells that hold, 5 with a number in no source, 5 with another row's
// value for a cell (held by `source` checks, dropped by `row`), 4 re-cased quotes (lenient only), 3 quotes
// found nowhere, 3 unknown sources.
function workload(data: Corpus, seed: number): Workload {
  const gen = seededGenerator(seed);
  const claims: CandidateClaim[] = [];
  const prose = () => gen.pick(data.sentences);
  const cell = () => {
    const chosen = gen.pick(data.rows);
    const index = gen.int(0, chosen.rows.length - 1);
    return { source: chosen.source, rows: chosen.rows, row: chosen.rows[index] as TableRow, index };
  };
  for (let index = 0; index < 50; index += 1) {
    const { source, text } = prose();
    claims.push({ claim: text, quote: text, source });
  }
  for (let index = 0; index < 30; index += 1) {
    const { source, row } = cell();
    const column = gen.pick(tableColumns);
    claims.push({ claim: `${row.label} ${column} was ${row.values[column]}.`, quote: row.line, source });
  }
  for (let index = 0; index < 5; index += 1) {
    const { source, text } = prose();
    claims.push({ claim: `${text} It then reached ${NOT_IN_ANY_SOURCE}.`, quote: text, source });
  }
  for (let added = 0; added < 5; ) {
    const { source, rows, row, index } = cell();
    const other = rows[(index + 1) % rows.length] as TableRow;
    const column = gen.pick(["Intake", "Output"] as const);
    if (other.values[column] === row.values[column]) continue;
    claims.push({ claim: `${row.label} ${column} was ${other.values[column]}.`, quote: row.line, source });
    added += 1;
  }
  for (let index = 0; index < 4; index += 1) {
    const { source, text } = prose();
    claims.push({ claim: text, quote: text.toUpperCase(), source });
  }
  for (let index = 0; index < 3; index += 1) {
    claims.push({ claim: "A frumious claim.", quote: "vorpal frumious bandersnatch", source: "doc-0" });
  }
  for (let index = 0; index < 3; index += 1) {
    const { text } = prose();
    claims.push({ claim: text, quote: text, source: "doc-missing" });
  }
  return {
    claims,
    expected: {
      strict: { citations: 85, number_not_found: 5, quote_not_found: 7, unknown_source: 3 },
      lenient: { citations: 89, number_not_found: 5, quote_not_found: 3, unknown_source: 3 },
      row: { citations: 80, number_not_found: 10, quote_not_found: 7, unknown_source: 3 },
      // Matching alone: the claims the number check drops are citations.
      "strict, matching only": { citations: 90, number_not_found: 0, quote_not_found: 7, unknown_source: 3 },
      "lenient, matching only": { citations: 94, number_not_found: 0, quote_not_found: 3, unknown_source: 3 },
    },
  };
}

const MODES: { name: string; options: ClaimCheckOptions }[] = [
  { name: "strict", options: { mode: "strict", checkNumbers: true } },
  { name: "lenient", options: { mode: "lenient", checkNumbers: true } },
  { name: "row", options: { mode: "strict", checkNumbers: "row" } },
  { name: "strict, matching only", options: { mode: "strict", checkNumbers: false } },
  { name: "lenient, matching only", options: { mode: "lenient", checkNumbers: false } },
];

function tally(result: ClaimsResult): Expected {
  const count = (reason: string) => result.unsupported.filter((each) => each.reason === reason).length;
  return {
    citations: result.citations.length,
    number_not_found: count("number_not_found"),
    quote_not_found: count("quote_not_found"),
    unknown_source: count("unknown_source"),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

interface Timing {
  wallMs: number;
  cpuMs: number;
}

// Wall time is what a caller waits; CPU time (user + system of this process) is reported beside it because
// other work on a shared 2-core machine inflates wall time without the code getting any slower.
function time(sources: Source[], claims: CandidateClaim[], options: ClaimCheckOptions): Timing {
  for (let run = 0; run < WARMUP_RUNS; run += 1) verifyClaims(sources, claims, options);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    verifyClaims(sources, claims, options);
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

/** Prints the median time per request for each mode at 100k and 200k characters, after checking results. */
export default async function run(): Promise<void> {
  const sizes = [100_000, 200_000];
  const timings = new Map<string, Timing[]>();
  const totals: number[] = [];
  for (const size of sizes) {
    const data = corpus(size, 20_240_601);
    const { claims, expected } = workload(data, 7);
    totals.push(data.sources.reduce((sum, source) => sum + source.text.length, 0));
    for (const { name, options } of MODES) {
      const result = verifyClaims(data.sources, claims, options);
      for (const citation of result.citations) {
        const text = data.sources.find((source) => source.id === citation.source)?.text ?? "";
        if (text.slice(citation.range[0], citation.range[1]) !== citation.quote) {
          throw new Error(`${name}: a citation's range does not slice to its quote`);
        }
      }
      const got = tally(result);
      if (JSON.stringify(got) !== JSON.stringify(expected[name])) {
        throw new Error(
          `${name} at ${size} characters: expected ${JSON.stringify(expected[name])}, got ${JSON.stringify(got)}`,
        );
      }
      timings.set(name, [...(timings.get(name) ?? []), time(data.sources, claims, options)]);
    }
  }

  console.log(
    `${CLAIM_COUNT} claims, ${SOURCE_COUNT} sources; median of ${RUNS} runs after ${WARMUP_RUNS} warm-up runs; ` +
      `${cpus().length} CPUs, load average ${(loadavg()[0] ?? 0).toFixed(1)}.\n`,
  );
  const [small, large] = totals.map((total) => `${total.toLocaleString("en-US")} chars`);
  console.log(`| mode | ${small}, wall | ${small}, CPU | ${large}, wall | ${large}, CPU | ratio (CPU) |`);
  console.log("|---|---|---|---|---|---|");
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  for (const { name, options } of MODES) {
    const [atSmall, atLarge] = timings.get(name) ?? [];
    if (atSmall === undefined || atLarge === undefined) continue;
    const label = `${name} (\`mode: ${options.mode}\`, \`checkNumbers: ${JSON.stringify(options.checkNumbers)}\`)`;
    const ratio = (atLarge.cpuMs / atSmall.cpuMs).toFixed(2);
    console.log(
      `| ${label} | ${ms(atSmall.wallMs)} | ${ms(atSmall.cpuMs)} | ${ms(atLarge.wallMs)} | ${ms(atLarge.cpuMs)} | ${ratio} |`,
    );
  }
  console.log("\nGoal: under 5 ms per request at 100,000 characters; the ratio at most about 2 (linear).");
}
