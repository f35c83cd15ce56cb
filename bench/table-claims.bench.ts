// Number checks on claims people wrote about tables: numeric TabFact statements (CC BY 4.0) about
// Wikipedia tables, from two splits built the same way from different tables, ../shared/data/tabfact-dev
// (rules are read from its misses) and ../shared/data/tabfact-val (a rule stays only when val moves the
// same way); see ../shared/data/README.md, TabFact section. Each case is checked as `verified check
// --jsonl` would (the core's judgeClaims) with `check_numbers` "row", "source" and "quote", and counted
// in four slices: true claims whose numbers are all on the quoted row (should be kept), true claims with a
// number on no cell of that row (counts, differences: a verbatim check rightly refuses), false claims
// whose numbers differ from their true twin (should be dropped), and false claims with their twin's
// numbers (no number check can catch). The slices hold the `in_table` cases (a row holds most of the
// claim's numbers); the others are counted on a line of their own.
//
//   VERBOSE=1        print the row check's misses (both splits)
//   RULES_OFF=R3,R7  run with those binding rules turned off
//   PER_RULE=1       also print each rule's effect: the row figures with that one rule off, on both splits
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import { BINDING_RULES } from "../src/core/binding/index.js";
import { judgeClaims } from "../src/core/claims/verify-claims.js";
import { prepareSources } from "../src/core/prepared-source.js";
import type { CandidateClaim, CheckNumbers, Source } from "../src/core/types.js";
import { type RuleId, withRulesOff } from "../src/core/wording/index.js";

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

export const SLICES = [
  { name: "true claims, every number on the quoted row", keepIsRight: true },
  { name: "true claims, some number not on that row (rightly refused)", keepIsRight: undefined },
  { name: "false claims whose numbers differ from their true twin", keepIsRight: false },
  { name: "false claims with their twin's numbers (uncatchable)", keepIsRight: undefined },
  { name: "(not in the slices: no row holds most of the claim's numbers)", keepIsRight: undefined },
] as const;

type Slice = (typeof SLICES)[number];

/** What a slice's cells count, as the README says it: the false claims a check should drop are "caught". */
export function sliceLabel(slice: Slice): string {
  return `${slice.name}: ${slice.keepIsRight === false ? "caught" : "kept"}`;
}

/** A slice's cell count for one mode: claims kept, or for a slice that should be dropped, claims caught. */
export function sliceCount(slice: Slice, kept: number, total: number): number {
  return slice.keepIsRight === false ? total - kept : kept;
}

const MODES = ["row", "source", "quote"] as const satisfies readonly CheckNumbers[];

/** One split's cases, by slice (indexes of `SLICES`). */
interface Split {
  name: string;
  tables: number;
  claims: number;
  slices: CaseLine[][];
}

// The goals on val (issue 25): at least 95% of true all-on-row claims kept, at least 60% of differing
// false claims caught, and each within 2 points of dev.
const GOAL_KEPT = 95;
const GOAL_CAUGHT = 60;
const GOAL_GAP = 2;

function readLines<T>(file: string): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

const share = (part: number, whole: number): number => (whole === 0 ? Number.NaN : (100 * part) / whole);
const percent = (part: number, whole: number): string => `${share(part, whole).toFixed(1)}%`;

function readSplit(folder: string, name: string): Split | undefined {
  const casesFile = join(folder, "cases.jsonl");
  const metaFile = join(folder, "cases.meta.jsonl");
  if (!existsSync(casesFile) || !existsSync(metaFile)) return undefined;
  const cases = readLines<CaseLine>(casesFile);
  const meta = new Map(readLines<MetaLine>(metaFile).map((line) => [line.id, line]));
  const slices: CaseLine[][] = SLICES.map(() => []);
  for (const each of cases) {
    const about = meta.get(each.id);
    if (about === undefined) throw new Error(`${each.id}: no meta line`);
    const slice =
      each.kind !== "in_table"
        ? 4
        : each.label === "entailed"
          ? about.all_in_row
            ? 0
            : 1
          : about.numbers_differ_from_pair
            ? 2
            : 3;
    slices[slice]?.push(each);
  }
  const tables = new Set(cases.map((each) => each.sources[0]?.text)).size;
  return { name, tables, claims: cases.length, slices };
}

function grounded(each: CaseLine, mode: CheckNumbers): boolean {
  const verdicts = judgeClaims(prepareSources(each.sources), each.claims, {
    checkNumbers: mode,
    explain: true,
  });
  return verdicts.every((verdict) => verdict.grounded);
}

/** Per slice, how many claims each mode keeps. */
function keptBySlice(split: Split, modes: readonly CheckNumbers[]): number[][] {
  return split.slices.map((cases) =>
    modes.map((mode) => cases.filter((each) => grounded(each, mode)).length),
  );
}

/** The row check's two goal figures on a split: true all-on-row kept and differing false caught, in %. */
function rowFigures(split: Split): { kept: number; caught: number; keptCount: number; caughtCount: number } {
  const trueCases = split.slices[0] as CaseLine[];
  const falseCases = split.slices[2] as CaseLine[];
  const keptCount = trueCases.filter((each) => grounded(each, "row")).length;
  const caughtCount = falseCases.filter((each) => !grounded(each, "row")).length;
  return {
    kept: share(keptCount, trueCases.length),
    caught: share(caughtCount, falseCases.length),
    keptCount,
    caughtCount,
  };
}

function printMisses(split: Split): void {
  console.log(`\nMisses of the row check on ${split.name}:`);
  split.slices.forEach((cases, slice) => {
    const keepIsRight = SLICES[slice]?.keepIsRight;
    if (keepIsRight === undefined) return;
    for (const each of cases) {
      const sources = prepareSources(each.sources);
      const verdicts = judgeClaims(sources, each.claims, { checkNumbers: "row", explain: true });
      if (verdicts.every((verdict) => verdict.grounded) === keepIsRight) continue;
      const claim = each.claims[0];
      const verdict = verdicts[0];
      const why = verdict !== undefined && !verdict.grounded ? verdict.unsupported.detail : undefined;
      const checked =
        why === undefined
          ? ""
          : `\n    ${why.number} checked against ${why.checked}: ${
              why.cells?.map((cell) => `[${cell.row} / ${cell.column}: ${cell.text}]`).join(" ") ?? why.text
            }`;
      console.log(
        `  ${keepIsRight ? "dropped" : "kept"} (${each.id}): ${claim?.claim}\n    quote: ${claim?.quote}${checked}`,
      );
    }
  });
}

/** Runs the benchmark on dev and val and prints them side by side with the goals' verdicts. */
export default async function run(): Promise<void> {
  const splits = (["dev", "val"] as const)
    .map((name) => {
      const folder = findBenchData(`tabfact-${name}`);
      return folder === undefined ? undefined : readSplit(folder, name);
    })
    .filter((split): split is Split => split !== undefined);
  if (splits.length === 0) {
    console.log(missingBenchData("tabfact-dev/cases.jsonl"));
    return;
  }
  const off = (process.env.RULES_OFF ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "") as RuleId[];
  if (off.length > 0) console.log(`Rules turned off: ${off.join(", ")}\n`);

  withRulesOff(off, () => {
    for (const split of splits) {
      console.log(`${split.name}: ${split.claims} claims about ${split.tables} tables.`);
    }
    console.log("kept = every claim of the case grounded; caught = some claim of the case dropped.\n");
    const kept = splits.map((split) => keptBySlice(split, MODES));
    const header = splits.flatMap((split) => MODES.map((mode) => `${split.name} ${mode}`));
    console.log(
      `| slice | ${splits.map((split) => `n ${split.name}`).join(" | ")} | ${header.join(" | ")} |`,
    );
    console.log(`|---|${splits.map(() => "---|").join("")}${header.map(() => "---|").join("")}`);
    SLICES.forEach((slice, index) => {
      const counts = splits.map((split) => (split.slices[index] as CaseLine[]).length);
      const cells = splits.flatMap((split, at) =>
        MODES.map((_, mode) => {
          const total = (split.slices[index] as CaseLine[]).length;
          return percent(sliceCount(slice, kept[at]?.[index]?.[mode] as number, total), total);
        }),
      );
      console.log(`| ${sliceLabel(slice)} | ${counts.join(" | ")} | ${cells.join(" | ")} |`);
    });

    const figures = splits.map((split) => rowFigures(split));
    console.log(
      `\nGoals (row), on val: true all-on-row claims >= ${GOAL_KEPT}% kept; differing false claims >= ` +
        `${GOAL_CAUGHT}% caught; dev and val within ${GOAL_GAP} points of each other on both.`,
    );
    const verdict = (met: boolean) => (met ? "goal met" : "goal NOT met");
    splits.forEach((split, at) => {
      const {
        kept: keptShare,
        caught,
        keptCount,
        caughtCount,
      } = figures[at] as ReturnType<typeof rowFigures>;
      const goals =
        split.name === "val"
          ? ` (${verdict(keptShare >= GOAL_KEPT)}; ${verdict(caught >= GOAL_CAUGHT)})`
          : "";
      console.log(
        `Row on ${split.name}: ${keptCount}/${(split.slices[0] as CaseLine[]).length} true kept (${keptShare.toFixed(1)}%); ` +
          `${caughtCount}/${(split.slices[2] as CaseLine[]).length} differing false caught (${caught.toFixed(1)}%)${goals}.`,
      );
    });
    if (figures.length === 2) {
      const [dev, val] = figures as [ReturnType<typeof rowFigures>, ReturnType<typeof rowFigures>];
      const keptGap = Math.abs(dev.kept - val.kept);
      const caughtGap = Math.abs(dev.caught - val.caught);
      console.log(
        `Dev and val: kept ${keptGap.toFixed(1)} points apart (${verdict(keptGap <= GOAL_GAP)}), caught ` +
          `${caughtGap.toFixed(1)} points apart (${verdict(caughtGap <= GOAL_GAP)}).`,
      );
    }
    if (process.env.VERBOSE === "1") for (const split of splits) printMisses(split);

    if (process.env.PER_RULE === "1") {
      console.log("\nEach rule turned off on its own (row check; change in claims against all rules on):\n");
      console.log(
        `| rule | pass | ${splits.map((split) => `${split.name} true kept | ${split.name} false caught`).join(" | ")} |`,
      );
      console.log(`|---|---|${splits.map(() => "---|---|").join("")}`);
      const signed = (count: number) => (count > 0 ? `+${count}` : `${count}`);
      for (const rule of BINDING_RULES) {
        if (off.includes(rule.id)) continue;
        const cells = splits.map((split, at) => {
          const base = figures[at] as ReturnType<typeof rowFigures>;
          const without = withRulesOff([rule.id], () => rowFigures(split));
          // What the rule does: claims it keeps (true) and catches (false), i.e. all-on minus rule-off.
          return `${signed(base.keptCount - without.keptCount)} | ${signed(base.caughtCount - without.caughtCount)}`;
        });
        console.log(`| ${rule.id} | ${rule.pass} | ${cells.join(" | ")} |`);
      }
    }
  });
}
