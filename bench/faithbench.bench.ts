// Answer mode on FaithBench's 400 summaries (batches 1–8 in ../shared/data/raw/faithbench, written by ten
// LLMs; CC BY-NC-SA 4.0, so the data stays outside the repository and this bench reads it from there). Each
// summary is checked as an answer against its article; it is flagged when any sentence is dropped. A summary
// is hallucinated when any annotation carries an `Unwanted` label (the paper's worst-label pooling). The
// eight detectors whose scores FaithBench stores are measured on the same summaries (a score under 0.5 is a
// flag). Set VERBOSE=1 to print each flagged summary's first drop.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import { checkAnswer, splitAnswerClaims } from "../src/core/index.js";

interface Annotation {
  label: string[];
}

interface Sample {
  sample_id: number;
  source: string;
  summary: string;
  annotations: Annotation[];
  metadata: Record<string, string | number>;
}

const FOLDER = "raw/faithbench/data_for_release";
const DETECTORS = [
  "hhemv1",
  "hhem-2.1",
  "hhem-2.1-english",
  "trueteacher",
  "true_nli",
  "gpt-3.5-turbo",
  "gpt-4-turbo",
  "gpt_4o",
];

interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

const confusion = (): Confusion => ({ tp: 0, fp: 0, tn: 0, fn: 0 });

function add(target: Confusion, hallucinated: boolean, flagged: boolean): void {
  if (hallucinated) flagged ? target.tp++ : target.fn++;
  else flagged ? target.fp++ : target.tn++;
}

const ratio = (a: number, b: number): number => (b === 0 ? Number.NaN : a / b);
const balanced = (c: Confusion): number => (ratio(c.tp, c.tp + c.fn) + ratio(c.tn, c.tn + c.fp)) / 2;
const precision = (c: Confusion): number => ratio(c.tp, c.tp + c.fp);
const recall = (c: Confusion): number => ratio(c.tp, c.tp + c.fn);
const percent = (value: number): string => (Number.isNaN(value) ? "–" : `${(value * 100).toFixed(1)}%`);

function row(name: string, c: Confusion): string {
  return `| ${name} | ${percent(balanced(c))} | ${percent(precision(c))} | ${percent(recall(c))} | ${c.tp + c.fn + c.tn + c.fp} |`;
}

/** Loads the 400 summaries, or null when neither .bench-data nor ../shared/data holds them (a clone has none). */
export function loadFaithBench(): Sample[] | null {
  const folder = findBenchData(FOLDER);
  if (folder === undefined) return null;
  const files = readdirSync(folder)
    .filter((name) => /^batch_\d+\.json$/.test(name))
    .sort((a, b) => Number(a.match(/\d+/)?.[0]) - Number(b.match(/\d+/)?.[0]));
  return files.flatMap(
    (name) => (JSON.parse(readFileSync(join(folder, name), "utf8")) as { samples: Sample[] }).samples,
  );
}

const isUnwanted = (sample: Sample, kind?: string): boolean =>
  sample.annotations.some((annotation) =>
    annotation.label.some((label) =>
      kind === undefined ? label.startsWith("Unwanted") : label === `Unwanted.${kind}`,
    ),
  );

export default async function faithBench(): Promise<void> {
  const samples = loadFaithBench();
  if (samples === null) {
    console.log(missingBenchData(FOLDER));
    return;
  }
  const ours = confusion();
  const bySummarizer = new Map<string, Confusion>();
  const detectors = new Map(DETECTORS.map((name) => [name, confusion()]));
  const reasons = new Map<string, number>();
  const kinds = { Intrinsic: { caught: 0, total: 0 }, Extrinsic: { caught: 0, total: 0 } };
  const verbose = process.env.VERBOSE === "1";
  // Two passes to warm the JIT, then the median of five timed passes.
  const flags: boolean[] = [];
  const passes: number[] = [];
  for (let pass = 0; pass < 7; pass++) {
    const started = process.hrtime.bigint();
    flags.length = 0;
    for (const sample of samples) {
      const result = checkAnswer([{ id: "article", text: sample.source }], sample.summary);
      flags.push(result.unsupported.length > 0);
    }
    if (pass > 1) passes.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  const seconds = passes.sort((a, b) => a - b)[2] as number;
  for (const [index, sample] of samples.entries()) {
    const hallucinated = isUnwanted(sample);
    const flagged = flags[index] as boolean;
    add(ours, hallucinated, flagged);
    const summarizer = String(sample.metadata.summarizer).split("/").at(-1) as string;
    if (!bySummarizer.has(summarizer)) bySummarizer.set(summarizer, confusion());
    add(bySummarizer.get(summarizer) as Confusion, hallucinated, flagged);
    for (const kind of ["Intrinsic", "Extrinsic"] as const) {
      if (!isUnwanted(sample, kind)) continue;
      kinds[kind].total++;
      if (flagged) kinds[kind].caught++;
    }
    for (const name of DETECTORS) {
      const score = sample.metadata[name];
      if (typeof score === "number") add(detectors.get(name) as Confusion, hallucinated, score < 0.5);
    }
    if (flagged) {
      const result = checkAnswer([{ id: "article", text: sample.source }], sample.summary, { explain: true });
      const first = result.unsupported[0];
      if (first !== undefined) reasons.set(first.reason, (reasons.get(first.reason) ?? 0) + 1);
      if (verbose && first !== undefined) {
        console.log(
          `${hallucinated ? "TP" : "FP"} ${sample.sample_id} ${first.reason} ${JSON.stringify(first.detail ?? {})} ${JSON.stringify(first.claim)}`,
        );
      }
    }
  }
  // The lever for long sources: the share of the consistent summaries' sentences that get a flag (a summary
  // of n sentences is flagged when any is, so a small rate per sentence grows with the source's length).
  let consistentSentences = 0;
  let consistentFlags = 0;
  for (const sample of samples) {
    if (isUnwanted(sample)) continue;
    consistentSentences += splitAnswerClaims(sample.summary).length;
    consistentFlags += checkAnswer([{ id: "article", text: sample.source }], sample.summary).unsupported
      .length;
  }
  const hallucinatedCount = samples.filter((sample) => isUnwanted(sample)).length;
  console.log(`${samples.length} summaries, ${hallucinatedCount} hallucinated (any Unwanted label).\n`);
  console.log("| detector | balanced accuracy | precision | recall | n |\n|---|---|---|---|---|");
  console.log(row("**verified answer mode (no model)**", ours));
  for (const [name, c] of detectors) console.log(row(name, c));
  console.log(
    "\nPer summarizer (verified answer mode):\n\n| summarizer | balanced accuracy | precision | recall | n |\n|---|---|---|---|---|",
  );
  for (const [name, c] of [...bySummarizer].sort(([a], [b]) => a.localeCompare(b))) console.log(row(name, c));
  console.log("\nRecall by kind of Unwanted label:");
  for (const [kind, { caught, total }] of Object.entries(kinds))
    console.log(`- ${kind}: ${caught}/${total} (${percent(caught / total)})`);
  console.log(
    `\nFirst reason of each flag: ${[...reasons].map(([reason, n]) => `${reason} ${n}`).join(", ")}`,
  );
  console.log(
    `Sentences of consistent summaries flagged: ${consistentFlags}/${consistentSentences} (${percent(consistentFlags / consistentSentences)}).`,
  );
  const rate = samples.length / seconds;
  console.log(
    `Speed: ${samples.length} summaries in ${(seconds * 1000).toFixed(0)} ms, median of 5 warm passes (${Math.round(rate).toLocaleString("en-US")} summaries/s).`,
  );
  const bestDetector = Math.max(...[...detectors.values()].map(balanced));
  const goals = [
    [
      `balanced accuracy above every stored detector (best ${percent(bestDetector)})`,
      balanced(ours) > bestDetector,
    ],
    ["precision at least 80%", precision(ours) >= 0.8],
    ["1,000 summaries/s or more", rate >= 1000],
  ] as const;
  console.log("\nGoals:");
  for (const [goal, met] of goals) console.log(`- ${goal}: ${met ? "met" : "NOT met"}`);
}
