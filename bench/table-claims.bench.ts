// Number checks on claims people wrote about tables: 3,032 numeric TabFact statements (CC BY 4.0) about
// 1,498 Wikipedia tables, from ../shared/data/tabfact-dev (see ../shared/data/README.md, TabFact section).
// Each case is checked as `verified check --jsonl` would (the core's judgeClaims) with `check_numbers`
// "row", "source" and "quote", and counted in four slices: true claims whose numbers are all on the quoted
// row (should be kept), true claims with a number on no cell of that row (counts, differences: a verbatim
// check rightly refuses), false claims whose numbers differ from their true twin (should be dropped), and
// false claims with their twin's numbers (no number check can catch). The slices hold the `in_table`
// cases (a row holds most of the claim's numbers); the others are counted on a line of their own. Set VERBOSE=1 to print the misses.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { judgeClaims } from "../src/core/claims/verify-claims.js";
import { prepareSources } from "../src/core/prepared-source.js";
import type { CandidateClaim, CheckNumbers, Source } from "../src/core/types.js";

interface CaseLine {
  id: string;
  label: "entailed" | "refuted";
  kind: "in_table" | "not_in_table";
  sources: Source[];
  claims: CandidateClaim[];
}

interface MetaLine {
  id: string;
  numbers_differ_from_pair: boolean;
  all_in_row: boolean;
}

interface Slice {
  name: string;
  /** True when a kept claim is the right outcome for this slice. */
  keepIsRight: boolean | undefined;
  cases: CaseLine[];
}

const MODES = ["row", "source", "quote"] as const satisfies readonly CheckNumbers[];

function readLines<T>(file: string): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(1)}%`;
}

/** Runs the benchmark and prints, per slice, the share each number-check mode keeps. */
export default async function run(): Promise<void> {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const folder = join(root, "..", "shared", "data", "tabfact-dev");
  const casesFile = join(folder, "cases.jsonl");
  const metaFile = join(folder, "cases.meta.jsonl");
  if (!existsSync(casesFile) || !existsSync(metaFile)) {
    console.log(`skipped: ${folder} not found (cases.jsonl and cases.meta.jsonl are needed)`);
    return;
  }
  const cases = readLines<CaseLine>(casesFile);
  const meta = new Map(readLines<MetaLine>(metaFile).map((line) => [line.id, line]));
  const slices: Slice[] = [
    { name: "true claims, every number on the quoted row", keepIsRight: true, cases: [] },
    { name: "true claims, some number not on that row (rightly refused)", keepIsRight: undefined, cases: [] },
    { name: "false claims whose numbers differ from their true twin", keepIsRight: false, cases: [] },
    { name: "false claims with their twin's numbers (uncatchable)", keepIsRight: undefined, cases: [] },
    {
      name: "(not in the slices: no row holds most of the claim's numbers)",
      keepIsRight: undefined,
      cases: [],
    },
  ];
  for (const each of cases) {
    const about = meta.get(each.id);
    if (about === undefined) throw new Error(`${each.id}: no meta line`);
    const slice =
      each.kind !== "in_table"
        ? slices[4]
        : each.label === "entailed"
          ? slices[about.all_in_row ? 0 : 1]
          : slices[about.numbers_differ_from_pair ? 2 : 3];
    slice?.cases.push(each);
  }

  const verbose = process.env.VERBOSE === "1";
  const tables = new Set(cases.map((each) => each.sources[0]?.text)).size;
  console.log(
    `${cases.length} claims about ${tables} tables (TabFact dev split); kept = every claim grounded.\n`,
  );
  console.log(`| slice | n | ${MODES.map((mode) => `${mode} keeps`).join(" | ")} |`);
  console.log(`|---|---|${MODES.map(() => "---|").join("")}`);
  const misses: string[] = [];
  // Row mode's kept counts for the two slices with goals: true all-on-row claims and differing false ones.
  const rowKept: number[] = [];
  for (const slice of slices) {
    const kept = MODES.map(() => 0);
    for (const each of slice.cases) {
      const sources = prepareSources(each.sources);
      MODES.forEach((mode, index) => {
        const verdicts = judgeClaims(sources, each.claims, { checkNumbers: mode, explain: true });
        const grounded = verdicts.every((verdict) => verdict.grounded);
        if (grounded) kept[index] = (kept[index] as number) + 1;
        if (verbose && mode === "row" && slice.keepIsRight !== undefined && grounded !== slice.keepIsRight) {
          const claim = each.claims[0];
          const verdict = verdicts[0];
          const why = verdict !== undefined && !verdict.grounded ? verdict.unsupported.detail : undefined;
          const checked =
            why === undefined
              ? ""
              : `\n    ${why.number} checked against ${why.checked}: ${
                  why.cells?.map((cell) => `[${cell.row} / ${cell.column}: ${cell.text}]`).join(" ") ??
                  why.text
                }`;
          misses.push(
            `  ${slice.keepIsRight ? "dropped" : "kept"} (${each.id}): ${claim?.claim}\n    quote: ${claim?.quote}${checked}`,
          );
        }
      });
    }
    rowKept.push(kept[0] as number);
    const cells = kept.map((count) => percent(count, slice.cases.length)).join(" | ");
    console.log(`| ${slice.name} | ${slice.cases.length} | ${cells} |`);
  }
  console.log(
    "\nGoals (row): true claims with every number on the quoted row >= 97% kept; false claims whose " +
      "numbers differ >= 60% dropped (kept <= 40%).",
  );
  const trueSlice = slices[0] as Slice;
  const falseSlice = slices[2] as Slice;
  const trueKept = rowKept[0] as number;
  const caught = falseSlice.cases.length - (rowKept[2] as number);
  const verdict = (met: boolean) => (met ? "goal met" : "goal not met");
  console.log(
    `Row: ${trueKept}/${trueSlice.cases.length} true kept (${verdict(trueKept >= 0.97 * trueSlice.cases.length)}); ` +
      `${caught}/${falseSlice.cases.length} differing false caught (${verdict(caught >= 0.6 * falseSlice.cases.length)}).`,
  );
  if (verbose) for (const miss of misses) console.log(miss);
}
