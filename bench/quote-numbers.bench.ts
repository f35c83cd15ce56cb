// `check_numbers: "quote"` on the 1,568 real answer spans of ../shared/data/spans.jsonl (SQuAD/XQuAD and
// TAT-QA, see ../shared/data/README.md). Each span holding a number becomes a claim quoting that span,
// exactly (`It was {span}.`) and with its first number swapped for another number of the same source
// that the span does not hold. Exact claims must be kept; swapped ones dropped: `source` keeps them (the
// number is somewhere in the source) and `row` on prose checks the whole quoted line, so only `quote`
// binds the number to the claim's own quote. Deterministic: the swap takes the source's number nearest
// to the span. Set VERBOSE=1 to print the misses.
import { readFileSync } from "node:fs";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import { judgeClaims } from "../src/core/claims/verify-claims.js";
import { findNumbers } from "../src/core/numbers/scan.js";
import { prepareSources } from "../src/core/prepared-source.js";
import type { CheckNumbers } from "../src/core/types.js";

interface SpanLine {
  id: string;
  context: string;
  answer: string;
  start: number;
}

const MODES = ["quote", "source", "row"] as const satisfies readonly CheckNumbers[];

// The source's number nearest the span whose key the span lacks, or undefined.
function swappedNumber(line: SpanLine, spanKeys: Set<string>): string | undefined {
  let best: { text: string; distance: number } | undefined;
  for (const number of findNumbers(line.context)) {
    if (spanKeys.has(number.key)) continue;
    const distance = Math.abs(number.start - line.start);
    if (best === undefined || distance < best.distance) {
      best = { text: line.context.slice(number.start, number.end), distance };
    }
  }
  return best?.text;
}

/** Runs the benchmark and prints the share of exact claims kept and swapped claims dropped per mode. */
export default async function run(): Promise<void> {
  const file = findBenchData("spans.jsonl");
  if (file === undefined) {
    console.log(missingBenchData("spans.jsonl"));
    return;
  }
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SpanLine);

  const exactKept = MODES.map(() => 0);
  const swappedDropped = MODES.map(() => 0);
  let exact = 0;
  let swapped = 0;
  let unquotable = 0;
  const misses: string[] = [];
  for (const line of lines) {
    const answer = line.answer.trim();
    const numbers = findNumbers(answer);
    const first = numbers[0];
    if (first === undefined) continue;
    const sources = prepareSources([{ id: "s", text: line.context }]);
    const judge = (claim: string, mode: CheckNumbers) =>
      judgeClaims(sources, [{ claim, quote: answer, source: "s" }], { checkNumbers: mode })[0]?.grounded ===
      true;
    // A span cut inside a number (`(2,70` of `(2,700,000`) is no quote at all: not a number check's case.
    if (!judge(`It was ${answer}.`, false)) {
      unquotable += 1;
      continue;
    }
    exact += 1;
    MODES.forEach((mode, index) => {
      const kept = judge(`It was ${answer}.`, mode);
      if (kept) exactKept[index] = (exactKept[index] as number) + 1;
      else if (mode === "quote") misses.push(`  exact dropped (${line.id}): ${answer}`);
    });
    const other = swappedNumber(line, new Set(numbers.map((number) => number.key)));
    if (other === undefined) continue;
    swapped += 1;
    const claim = `It was ${answer.slice(0, first.start)}${other}${answer.slice(first.end)}.`;
    MODES.forEach((mode, index) => {
      const kept = judge(claim, mode);
      if (!kept) swappedDropped[index] = (swappedDropped[index] as number) + 1;
      else if (mode === "quote") misses.push(`  swapped kept (${line.id}): ${claim} | quote: ${answer}`);
    });
  }
  const percent = (part: number, whole: number) =>
    whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(1)}%`;
  console.log(
    `${lines.length} spans; ${exact} hold a number, ${swapped} of those with another number in their source; ${unquotable} more are cut inside a token (no quote at all).\n`,
  );
  console.log("| mode | exact claims kept | swapped-number claims dropped |");
  console.log("|---|---|---|");
  MODES.forEach((mode, index) => {
    console.log(
      `| ${mode} | ${percent(exactKept[index] as number, exact)} (${exactKept[index]}/${exact}) | ` +
        `${percent(swappedDropped[index] as number, swapped)} (${swappedDropped[index]}/${swapped}) |`,
    );
  });
  console.log("\nGoals (quote): exact claims 100% kept, swapped-number claims 100% dropped.");
  if (process.env.VERBOSE === "1") for (const miss of misses) console.log(miss);
}
