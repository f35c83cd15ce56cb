// How often the built-in local model answers a real question with the right sentence: on the 1,568
// question/context/answer triples of ../shared/data/spans.jsonl (XQuAD/SQuAD and TAT-QA, see
// ../shared/data/README.md), the context is the one source and the question the user message. A case
// is answered right when the model's first claim (its best-ranked sentence) contains the dataset's answer
// span, falsely answered when it answers with a first claim that does not, and abstained when it returns
// no claim. Set VERBOSE=1 to print the false answers.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import type { Source } from "../src/core/index.js";
import { createLocalModel } from "../src/models/local/index.js";
import { sampleQuestion, sampleSchema, sampleSources } from "../src/sample.js";
import { median } from "./support/statistics.js";

interface SpanLine {
  id: string;
  context: string;
  question: string;
  answer: string;
  source_dataset: string;
}

interface Tally {
  total: number;
  right: number;
  wrong: number;
  abstained: number;
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(1)}%`;

/** The first claim's quote, or null when the model abstains. */
async function firstQuote(
  model: ReturnType<typeof createLocalModel>,
  line: SpanLine,
): Promise<string | null> {
  const result = await model.generate({
    model: "local",
    messages: [],
    task: {
      kind: "claims",
      sources: [{ id: "context", text: line.context }],
      messages: [{ role: "user", content: line.question }],
    },
  });
  const output = JSON.parse(result.content) as { claims: { quote: string }[] };
  return output.claims[0]?.quote ?? null;
}

const SPEED_RUNS = 5;

/**
 * Wall time of one claims call and one fields call over 100,000 characters of sources (the sample report
 * repeated), median of SPEED_RUNS after a warm-up. It was a unit test's bound (under 2 s); timings live here.
 */
async function speedOn100kChars(): Promise<void> {
  const sources: Source[] = [];
  for (let index = 0; sources.reduce((sum, source) => sum + source.text.length, 0) < 100_000; index++) {
    const text = (sampleSources[index % 2] as Source).text.replace(/Q3/g, `Q${index}`);
    sources.push({ id: `part-${index}`, text });
  }
  const model = createLocalModel();
  const once = async () => {
    const started = performance.now();
    await model.generate({
      model: "local",
      messages: [],
      task: { kind: "claims", sources, messages: [{ role: "user", content: sampleQuestion }] },
    });
    await model.generate({
      model: "local",
      messages: [],
      task: { kind: "fields", sources, schema: sampleSchema },
    });
    return performance.now() - started;
  };
  await once();
  const times: number[] = [];
  for (let run = 0; run < SPEED_RUNS; run += 1) times.push(await once());
  console.log(
    `claims + fields over 100,000 characters of sources: median ${median(times).toFixed(0)} ms of ${SPEED_RUNS} runs ` +
      `(load average ${loadavg()[0]?.toFixed(2)})\n`,
  );
}

/** Runs every triple through the local model and prints right, false-answer and abstention rates. */
export default async function run(): Promise<void> {
  await speedOn100kChars();
  const dataPath = findBenchData("spans.jsonl");
  if (dataPath === undefined) {
    console.log(missingBenchData("spans.jsonl"));
    return;
  }
  const lines = readFileSync(dataPath, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SpanLine);
  const model = createLocalModel();
  const tallies = new Map<string, Tally>();
  const all: Tally = { total: 0, right: 0, wrong: 0, abstained: 0 };
  const started = performance.now();
  for (const line of lines) {
    const quote = await firstQuote(model, line);
    const tally = tallies.get(line.source_dataset) ?? { total: 0, right: 0, wrong: 0, abstained: 0 };
    tallies.set(line.source_dataset, tally);
    for (const target of [tally, all]) {
      target.total += 1;
      if (quote === null) target.abstained += 1;
      else if (quote.includes(line.answer)) target.right += 1;
      else target.wrong += 1;
    }
    if (quote !== null && !quote.includes(line.answer) && process.env.VERBOSE === "1") {
      console.log(`false: ${line.id}\n  Q: ${line.question}\n  A: ${line.answer}\n  got: ${quote}`);
    }
  }
  const elapsedMs = performance.now() - started;
  console.log("| data | cases | first sentence holds the answer | false answer | abstained |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [name, tally] of [...[...tallies].sort(), ["all", all] as const]) {
    console.log(
      `| ${name} | ${tally.total} | ${percent(tally.right, tally.total)} | ${percent(tally.wrong, tally.total)} | ${percent(tally.abstained, tally.total)} |`,
    );
  }
  console.log(
    `\nfalse answers among answered cases: ${percent(all.wrong, all.right + all.wrong)}; ` +
      `${lines.length} cases in ${(elapsedMs / 1000).toFixed(1)} s (one process, wall clock)`,
  );
}
