// Answer mode on HaluEval's QA sample (raw/halueval/qa_one-turn_data.json: 500 items of HotpotQA knowledge, a
// question, the right answer and a hallucinated one written by ChatGPT; MIT licence). Each item's knowledge
// is the one source and its question the user's message; the right answer must pass with no sentence
// dropped, the hallucinated answer must be flagged (any sentence dropped). It is not held out: its misses were
// read once, for the defect of answers of only a number, though no threshold of answer mode is tuned on it
// (docs/accuracy.md). Set VERBOSE=1 to print each miss.
import { readFileSync } from "node:fs";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import { type AnswerResult, checkAnswer } from "../src/core/index.js";

interface Item {
  knowledge: string;
  question: string;
  right_answer: string;
  hallucinated_answer: string;
}

const FILE = "raw/halueval/qa_one-turn_data.json";

/** Loads the 500 items (one JSON object a line), or null when neither .bench-data nor ../shared/data holds them. */
export function loadHaluEval(): Item[] | null {
  const path = findBenchData(FILE);
  if (path === undefined) return null;
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Item);
}

const check = (item: Item, answer: string, explain = false): AnswerResult =>
  checkAnswer([{ id: "knowledge", text: item.knowledge }], answer, { question: [item.question], explain });

const ratio = (a: number, b: number): number => (b === 0 ? Number.NaN : a / b);
const percent = (value: number): string => (Number.isNaN(value) ? "–" : `${(value * 100).toFixed(1)}%`);

export default async function haluEval(): Promise<void> {
  const items = loadHaluEval();
  if (items === null) {
    console.log(missingBenchData(FILE));
    return;
  }
  // Two passes to warm the JIT, then the median of five timed passes over all 1,000 answers.
  const flags: { right: boolean; hallucinated: boolean }[] = [];
  const passes: number[] = [];
  for (let pass = 0; pass < 7; pass++) {
    const started = process.hrtime.bigint();
    flags.length = 0;
    for (const item of items) {
      flags.push({
        right: check(item, item.right_answer).unsupported.length > 0,
        hallucinated: check(item, item.hallucinated_answer).unsupported.length > 0,
      });
    }
    if (pass > 1) passes.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  const seconds = passes.sort((a, b) => a - b)[2] as number;
  const verbose = process.env.VERBOSE === "1";
  let tp = 0;
  let fp = 0;
  const reasons = { caught: new Map<string, number>(), falseFlags: new Map<string, number>() };
  for (const [index, item] of items.entries()) {
    const flag = flags[index] as { right: boolean; hallucinated: boolean };
    for (const [answer, flagged, hallucinated] of [
      [item.right_answer, flag.right, false],
      [item.hallucinated_answer, flag.hallucinated, true],
    ] as const) {
      if (hallucinated && flagged) tp++;
      if (!hallucinated && flagged) fp++;
      if (verbose && hallucinated !== flagged)
        console.log(`${hallucinated ? "FN" : "FP"} ${index} ${JSON.stringify(answer)}`);
      if (!flagged) continue;
      const first = check(item, answer, true).unsupported[0];
      if (first === undefined) continue;
      const counts = hallucinated ? reasons.caught : reasons.falseFlags;
      counts.set(first.reason, (counts.get(first.reason) ?? 0) + 1);
      if (verbose && !hallucinated)
        console.log(
          `   ${first.reason} ${JSON.stringify(first.detail ?? {})} ${JSON.stringify(first.claim)}`,
        );
    }
  }
  const n = items.length;
  const fn = n - tp;
  const tn = n - fp;
  const recall = ratio(tp, tp + fn);
  const precision = ratio(tp, tp + fp);
  const balanced = (recall + ratio(tn, tn + fp)) / 2;
  console.log(
    `${n} items: ${n} right answers (must pass) and ${n} hallucinated answers (must be flagged).\n`,
  );
  console.log("| detector | balanced accuracy | precision | recall | n |\n|---|---|---|---|---|");
  console.log(
    `| **verified answer mode (no model)** | ${percent(balanced)} | ${percent(precision)} | ${percent(recall)} | ${2 * n} |`,
  );
  console.log(
    `\nHallucinated answers flagged ${tp}, let through ${fn}; right answers kept ${tn}, flagged ${fp}.`,
  );
  const list = (counts: Map<string, number>): string =>
    [...counts]
      .sort(([, a], [, b]) => b - a)
      .map(([reason, count]) => `${reason} ${count}`)
      .join(", ") || "none";
  console.log(
    `First reason of each flag: hallucinated ${list(reasons.caught)}; right ${list(reasons.falseFlags)}`,
  );
  const rate = (2 * n) / seconds;
  console.log(
    `Speed: ${2 * n} answers in ${(seconds * 1000).toFixed(0)} ms, median of 5 warm passes (${Math.round(rate).toLocaleString("en-US")} answers/s).`,
  );
}
