// The row guarantees over generated wordings (issue 33): claims that name one row label and one column
// label of a real table and carry its number, another column's or another row's, crossed over 44 verb
// phrases and 10 word orders (test/support/row-wordings.ts). Tables: the 338 of ../shared/data/
// table_cells.jsonl (TAT-QA, CC BY 4.0; WikiTableQuestions, CC BY-SA 4.0) and the 1,498 of
// ../shared/data/tabfact-dev (TabFact, CC BY 4.0), plus the spec's quarter table. Each cell is written in
// every word order with a quarter of the verb phrases, in turn across cells, so each pair of verb phrase
// and word order is met many times. Prints the rate at which each property holds, per verb phrase and per
// word order, and the cells left out as ambiguous.
//   VERBOSE=1         print up to 40 failures of each property
//   RULES_OFF=R45,R3  run with those binding rules turned off
//   EVERY=20          run every 20th claim of the set only (a quick look while changing a rule)
//   PER_RULE=1        also print, per binding rule, how often each property holds with that rule off
//                     (on every 40th claim of the set)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import { BINDING_RULES } from "../src/core/binding/index.js";
import { type RuleId, withRulesOff } from "../src/core/wording/index.js";
import {
  cellWordings,
  holds,
  judgeWording,
  readWordingTable,
  VERB_PHRASES,
  verbNamesHeader,
  WORD_ORDERS,
  type WordingCase,
  type WordingKind,
  type WordingTable,
} from "../test/support/row-wordings.js";

const SPEC_TABLE =
  "| Quarter | Revenue | Profit |\n|---|---|---|\n| Q2 | 1,100 | 210 |\n| Q3 | 1,250 | 230 |";
// Verb phrases written per cell (in turn across cells).
const VERBS_PER_CELL = 11;

function tableTexts(): string[] | undefined {
  const cellsFile = findBenchData("table_cells.jsonl");
  const devFolder = findBenchData("tabfact-dev");
  if (cellsFile === undefined || devFolder === undefined) return undefined;
  const texts = new Set<string>([SPEC_TABLE]);
  for (const line of readFileSync(cellsFile, "utf8").split("\n")) {
    if (line.trim() !== "") texts.add((JSON.parse(line) as { table_markdown: string }).table_markdown);
  }
  for (const line of readFileSync(join(devFolder, "cases.jsonl"), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const text = (JSON.parse(line) as { sources: { text: string }[] }).sources[0]?.text;
    if (text !== undefined) texts.add(text);
  }
  return [...texts];
}

// Cells written in an order and verb phrase left out because the verb is a form of a header's word.
let skippedVerbs = 0;

/** Every case of the full set, in a fixed order. */
export function* fullSet(tables: readonly WordingTable[]): Generator<WordingCase> {
  let turn = 0;
  for (const table of tables) {
    for (const cell of table.cells) {
      turn += 1;
      for (const order of WORD_ORDERS) {
        const count = order.verbal ? VERBS_PER_CELL : 1;
        for (let at = 0; at < count; at += 1) {
          const verb = VERB_PHRASES[(turn * VERBS_PER_CELL + at) % VERB_PHRASES.length];
          if (verb === undefined) continue;
          if (order.verbal && verbNamesHeader(table, verb)) skippedVerbs += 1;
          else yield* cellWordings(table, cell, order, verb);
        }
      }
    }
  }
}

interface Tally {
  held: number;
  total: number;
}
const rate = ({ held, total }: Tally) =>
  total === 0
    ? "n/a"
    : held === total
      ? "100%"
      : `${((100 * held) / total).toFixed(2)}% (${total - held} fail)`;

/** Runs the generated set and prints each property's rate, per verb phrase and per word order. */
export default async function run(): Promise<void> {
  const texts = tableTexts();
  if (texts === undefined) {
    console.log(missingBenchData("table_cells.jsonl and tabfact-dev/cases.jsonl"));
    return;
  }
  const tables = texts.map(readWordingTable).filter((table) => table !== undefined);
  const cells = tables.reduce((sum, table) => sum + table.cells.length, 0);
  const ambiguous = tables.reduce((sum, table) => sum + table.ambiguous, 0);
  const uncovered = tables.reduce((sum, table) => sum + table.uncovered, 0);
  console.log(
    `${tables.length} tables, ${cells} cells of one number claimed; left out: ${ambiguous} cells as ambiguous ` +
      "(a label inside another label, twins but for a footnote mark, a label with no letter or year, the " +
      `number also in a label) and ${uncovered} whose label holds a number other than a year, a date, a ` +
      "footnote mark or a code (`1-3 Years`, `Round of 32`: not covered).",
  );
  const off = (process.env.RULES_OFF ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "") as RuleId[];
  if (off.length > 0) console.log(`Rules turned off: ${off.join(", ")}`);
  withRulesOff(off, () => report(tables));
  if (process.env.PER_RULE === "1") perRule(tables, off);
}

// Per rule, the share of a sample of the set where each property holds with that rule off.
function perRule(tables: readonly WordingTable[], off: readonly RuleId[]): void {
  const sample = [...fullSet(tables)].filter((_, at) => at % 40 === 0);
  const names = [...new Set(sample.map((each) => each.kind))];
  const rates = (): string[] =>
    names.map((name) => {
      const cases = sample.filter((each) => each.kind === name);
      return rate({ held: cases.filter(holds).length, total: cases.length });
    });
  console.log(`\nEach rule off on its own, on every 40th claim (${sample.length}):\n`);
  console.log(`| rule | ${names.join(" | ")} |\n|---|${names.map(() => "---|").join("")}`);
  console.log(`| (all on) | ${withRulesOff(off, rates).join(" | ")} |`);
  for (const rule of BINDING_RULES) {
    if (off.includes(rule.id)) continue;
    console.log(`| ${rule.id} | ${withRulesOff([...off, rule.id], rates).join(" | ")} |`);
  }
}

function report(tables: readonly WordingTable[]): void {
  const kinds = new Map<WordingKind, { all: Tally; verb: Map<string, Tally>; order: Map<string, Tally> }>();
  const failures = new Map<WordingKind, string[]>();
  const count = (map: Map<string, Tally>, key: string, held: boolean) => {
    const tally = map.get(key) ?? { held: 0, total: 0 };
    tally.total += 1;
    if (held) tally.held += 1;
    map.set(key, tally);
  };
  const every = Number(process.env.EVERY ?? "1") || 1;
  let at = -1;
  for (const each of fullSet(tables)) {
    at += 1;
    if (at % every !== 0) continue;
    const held = holds(each);
    let kind = kinds.get(each.kind);
    if (kind === undefined) {
      kind = { all: { held: 0, total: 0 }, verb: new Map(), order: new Map() };
      kinds.set(each.kind, kind);
    }
    kind.all.total += 1;
    if (held) kind.all.held += 1;
    count(kind.verb, each.verb, held);
    count(kind.order, each.order, held);
    if (!held) {
      const list = failures.get(each.kind) ?? [];
      if (list.length < 40)
        list.push(`${each.claim}  [${each.text.slice(...each.quote)}] ${JSON.stringify(judgeWording(each))}`);
      failures.set(each.kind, list);
    }
  }
  console.log(
    `${skippedVerbs} cell wordings left out as ambiguous: a word of the verb phrase is a form of a header's word (\`recorded\` beside \`Record\`).`,
  );
  const names = [...kinds.keys()];
  console.log(`\n| property | claims | holds |\n|---|---|---|`);
  for (const [name, kind] of kinds) console.log(`| ${name} | ${kind.all.total} | ${rate(kind.all)} |`);
  for (const by of ["verb", "order"] as const) {
    const keys = [...new Set(names.flatMap((name) => [...(kinds.get(name)?.[by].keys() ?? [])]))];
    console.log(`\n| ${by === "verb" ? "verb phrase" : "word order"} | ${names.join(" | ")} |`);
    console.log(`|---|${names.map(() => "---|").join("")}`);
    for (const key of keys) {
      const cells = names.map((name) => {
        const tally = kinds.get(name)?.[by].get(key);
        return tally === undefined ? "" : rate(tally);
      });
      console.log(`| ${key} | ${cells.join(" | ")} |`);
    }
  }
  if (process.env.VERBOSE === "1") {
    for (const [name, list] of failures) {
      console.log(`\nFailures of "${name}":`);
      for (const line of list) console.log(`  ${line}`);
    }
  }
}
