import type { RuleId } from "../wording/index.js";

/**
 * The named passes of the row check, in the order they run: each rule acts in one of them, and
 * `explainRowNumbers` in `row-check.ts` runs them as functions of those names over one shared state.
 * - `read the claim` (`readClaim`): numbers, their units, dates and counts
 *   (`src/core/wording/value-columns.ts`);
 * - `find labels` (`findLabels`, `findTableLabels`): the row and column labels the claim names
 *   (`label-index.ts`, `label-text.ts`, `src/core/wording/header-words.ts`, `namingOccurrences`);
 * - `bind rows` (`bindRows`): which named row each number belongs to (`row-binding.ts`);
 * - `bind columns` (`bindColumns`): which named column each number belongs to (`valueColumns`,
 *   `subject-column.ts`);
 * - `check cells` (`checkCells`): whether each number is in its cell, row or column.
 */
export const BINDING_PASSES = [
  "read the claim",
  "find labels",
  "bind rows",
  "bind columns",
  "check cells",
] as const;
export type BindingPass = (typeof BINDING_PASSES)[number];

/** A claim about the rule's table and whether the row check keeps it (quoting the rule's `quote`). */
export interface RuleExample {
  claim: string;
  keep: boolean;
}

/** One rule of how people word claims about tables: its id, one sentence, the pass it acts in, examples. */
export interface BindingRule {
  id: RuleId;
  /** One sentence, present tense: what the rule does. */
  statement: string;
  pass: BindingPass;
  /** The markdown table the examples are about, and the text of it each example quotes. */
  table: string;
  quote: string;
  /** Claims that must keep and claims that must drop; with the rule off, at least one flips. */
  examples: readonly RuleExample[];
}

const table = (...lines: string[]): string => lines.join("\n");

const SPEC = table(
  "| quarter | revenue | profit |",
  "|---|---|---|",
  "| q2 | 1,100 | 210 |",
  "| q3 | 1,250 | 230 |",
);
const RACE = table(
  "| rank | athlete | time |",
  "|---|---|---|",
  "| 2 | ann lee | 5:01.30 |",
  "| 5 | cy day | 5:10.20 |",
  "| 6 | bo ray | 5:12.72 |",
);
const GAMES = table(
  "| week | opponent | result | attendance |",
  "|---|---|---|---|",
  "| 3 | lions | w 12 - 0 | 41256 |",
  "| 4 | bears | l 7 - 10 | 38011 |",
);
const ORCHARDS = table(
  "| farm | apples | pears | rows |",
  "|---|---|---|---|",
  "| hill farm | 44 | 31 | 9 |",
  "| low farm | 31 | 40 | 12 |",
);
const CLUBS = table("| team | pts | gp |", "|---|---|---|", "| ayr | 34 | 20 |", "| elgin | 28 | 20 |");
const SKIPS = table(
  "| skip | pf | pa | ends |",
  "|---|---|---|---|",
  "| ann lee | 44 | 31 | 9 |",
  "| bo ray | 31 | 40 | 12 |",
);
const MEDALS = table(
  "| rank | nation | gold | silver | bronze |",
  "|---|---|---|---|---|",
  "| 1 | jap | 4 | 1 | 0 |",
  "| 3 | kaz | 1 | 3 | 2 |",
);
const MATCHES_BY_DATE = table(
  "| round | date | visitor | crowd |",
  "|---|---|---|---|",
  "| 6 | march 30 , 2004 | otters | 17402 |",
  "| 7 | april 6 , 2004 | herons | 30 |",
);
const TOTALS = table(
  "|  | east | west | total |",
  "|---|---|---|---|",
  "| widgets | 10 | 15 | 25 |",
  "| gadgets | 20 | 25 | 45 |",
  "| total | 30 | 40 | 70 |",
);

/**
 * A promise of the `row` check that every rule lives inside: a property over generated wordings (CheckList's
 * minimum-functionality tests), run by `src/core/binding/row-guarantees.test.ts` on a fixed-seed sample and by
 * `npm run bench -- row-wordings` on the full set.
 */
export interface RowGuarantee {
  id: `G${number}`;
  /** One sentence, present tense: what the check promises. */
  statement: string;
  /** The wordings the property is checked over. */
  generator: string;
  table: string;
  quote: string;
  examples: readonly RuleExample[];
}

const WORDINGS =
  "a row label and a column label of a real table (years, dates and units in headers, footnote marks, names), one number, 44 verb phrases (copulas, reporting verbs, totals, changes, prepositions) in 10 word orders (row, column or number first, the column in a trailing phrase, a colon, a parenthesis)";

/** The guarantees, above the rules: a rule that breaks one is narrowed until it does not, or removed. */
export const ROW_GUARANTEES: readonly RowGuarantee[] = [
  {
    id: "G1",
    statement:
      "A claim naming a row and a column with the number of that cell is kept, whatever its verb and word order.",
    generator: WORDINGS,
    table: SPEC,
    quote: "| q3 | 1,250 | 230 |",
    examples: [
      { claim: "For q3, revenue came to 1,250", keep: true },
      { claim: "1,250 is the revenue figure q3 posted", keep: true },
      { claim: "q3 (revenue): 1,250", keep: true },
    ],
  },
  {
    id: "G2",
    statement: "A number from another column of the named row is dropped with `number_not_found`.",
    generator: WORDINGS,
    table: SPEC,
    quote: "| q3 | 1,250 | 230 |",
    examples: [
      { claim: "q3 revenue reached 230", keep: false },
      { claim: "Under revenue, q3 shows 230", keep: false },
      { claim: "230 is the revenue figure reported for q3", keep: false },
    ],
  },
  {
    id: "G3",
    statement: "A number from another row of the named column is dropped with `number_not_found`.",
    generator: WORDINGS,
    table: SPEC,
    quote: "| q3 | 1,250 | 230 |",
    examples: [
      { claim: "q3 posted 1,100 under revenue", keep: false },
      { claim: "Revenue for q3 amounted to 1,100", keep: false },
    ],
  },
  {
    id: "G4",
    statement:
      "A claim of two numbers, each bound to its own named cell of the row, is kept only when both are right.",
    generator: `${WORDINGS}; two columns of the row, in the row-first order`,
    table: SPEC,
    quote: "| q3 | 1,250 | 230 |",
    examples: [
      { claim: "q3 revenue rose to 1,250 and profit rose to 230", keep: true },
      { claim: "q3 revenue rose to 230 and profit rose to 1,250", keep: false },
      { claim: "q3 revenue rose to 1,100 and profit rose to 230", keep: false },
    ],
  },
];

/** Every rule of row binding, by id. `docs/number-checks.md` lists them as `renderRuleList` writes them. */
export const BINDING_RULES: readonly BindingRule[] = [
  {
    id: "R1",
    statement: "A claim that names no row has the row its quote cites as its row.",
    pass: "bind rows",
    table: SPEC,
    quote: "| q3 | 1,250 | 230 |",
    examples: [
      { claim: "profit reached 230", keep: true },
      { claim: "profit reached 210", keep: false },
    ],
  },
  {
    id: "R2",
    statement:
      "A claim naming several rows binds each number to the nearest row named before it, else the first named after it.",
    pass: "bind rows",
    table: SPEC,
    quote: "| q3 | 1,250 | 230 |",
    examples: [
      { claim: "q2 profit 210, q3 profit 230", keep: true },
      { claim: "q2 profit 230, q3 profit 210", keep: false },
    ],
  },
  {
    id: "R3",
    statement:
      "A number belongs to the column named right before it with `of` (`a difference of 6 points`), else to the nearest column mention with no other group of numbers in between, and a mention between two groups to the nearer one, unless a clause break (`,`, `;`, `and`, `while`, `but`) comes before the mention: it then opens the next group's clause.",
    pass: "bind columns",
    table: ORCHARDS,
    quote: "| hill farm | 44 | 31 | 9 |",
    examples: [
      { claim: "hill farm with 44 apples had 9", keep: true },
      { claim: "hill farm with 44 apples was 9", keep: true },
      { claim: "the longest rows figure for a farm picking 44 apples was 9", keep: true },
      { claim: "the longest rows figure for a farm picking 44 apples was 12", keep: false },
      { claim: "the farm that picked 31 apples had 9 rows", keep: false },
      { claim: "hill farm apples came to 44 and pears came to 31", keep: true },
      { claim: "hill farm apples came to 31 and pears came to 44", keep: false },
      { claim: "hill farm sold pears of 31 crates", keep: true },
      { claim: "hill farm sold pears of 44 crates", keep: false },
    ],
  },
  {
    id: "R4",
    statement:
      "A column constrains a number only where its cell in the bound row holds a number: a text column identifies the row.",
    pass: "check cells",
    table: GAMES,
    quote: "| 3 | lions | w 12 - 0 | 41256 |",
    examples: [
      { claim: "the opponent lions drew 41256", keep: true },
      { claim: "the opponent lions : 41256", keep: true },
      { claim: "the opponent lions drew 38011", keep: false },
    ],
  },
  {
    id: "R5",
    statement:
      "Headers are named by inflection and common abbreviations (`weighed` names `weight`, `pts` names `points`, `gp` names `games played`), over at most three claim words.",
    pass: "find labels",
    table: CLUBS,
    quote: "| ayr | 34 | 20 |",
    examples: [
      { claim: "ayr scored 34 points in 20 games played", keep: true },
      { claim: "ayr had 20 points", keep: false },
    ],
  },
  {
    id: "R6",
    statement:
      "Numbers joined only by spaces, `-`, `–`, `:`, `/`, brackets, `+`, `=` or `,` (`5:06.72`, `12 - 0`, `70 + 71 = 141`) are one unit that shares one column.",
    pass: "read the claim",
    table: table(
      "| crossing | date | score | riders |",
      "|---|---|---|---|",
      "| north pier | may 3 , 2021 | w 23 - 7 | 26941 |",
      "| south pier | may 10 , 2021 | l 10 - 14 | 30000 |",
    ),
    quote: "| north pier | may 3 , 2021 | w 23 - 7 | 26941 |",
    examples: [
      { claim: "the score of the regatta on may 3 , 2021 was w 23 - 7", keep: true },
      { claim: "the score of the regatta on may 3 , 2021 was w 10 - 14", keep: false },
      { claim: "the regatta score was 23 - 26941", keep: false },
    ],
  },
  {
    id: "R7",
    statement:
      "A numeric row label names its row only right after the first column's header (`week 5`) or as the label of the quoted row, never beside a month name, and that header constrains only a number right after it.",
    pass: "find labels",
    table: RACE,
    quote: "| 6 | bo ray | 5:12.72 |",
    examples: [
      { claim: "5:12.72 is the time of bo ray", keep: true },
      { claim: "rank 5 went to cy day in 5:10.20", keep: true },
      { claim: "rank 5 ran 5:12.72", keep: false },
    ],
  },
  {
    id: "R8",
    statement:
      "A date set as the claim's circumstance (after `on`, `in`, `the` and the like, or opening the claim) identifies the row and takes no column, and a date or a year takes no column named after it.",
    pass: "read the claim",
    table: MATCHES_BY_DATE,
    quote: "| 6 | march 30 , 2004 | otters | 17402 |",
    examples: [
      { claim: "the otters' visit of march 30 , 2004 drew 17402 crowd", keep: true },
      { claim: "the 2004 crowd for the otters was 17402", keep: true },
      { claim: "march 30 crowd was 17402", keep: true },
      { claim: "the crowd was march 30", keep: false },
    ],
  },
  {
    id: "R9",
    statement:
      "Every number must be in the bound row: in the cells of its column where it has one, else in any cell of the row.",
    pass: "check cells",
    table: SPEC,
    quote: "| q3 | 1,250 | 230 |",
    examples: [
      { claim: "q3 revenue was 1,250", keep: true },
      { claim: "q3 revenue was 1,100", keep: false },
      { claim: "q3 brought 210", keep: false },
    ],
  },
  {
    id: "R10",
    statement:
      "Numbers inside a named label are context (the `3` of `q3`), and when all numbers are, the last whole label is the value unless it is the only column named beside a row.",
    pass: "bind rows",
    table: table("| tournament | 2007 | 2008 |", "|---|---|---|", "| open | q1 | q2 |", "| cup | 2r | 1r |"),
    quote: "| open | q1 | q2 |",
    examples: [
      { claim: "the open for 2008 was q2", keep: true },
      { claim: "the open for 2008 was 2007", keep: false },
    ],
  },
  {
    id: "R11",
    statement:
      "A number followed by `more`, `less`, `fewer`, `higher`, `lower`, `greater`, `larger`, `smaller`, `bigger` or `times` is a difference or a count: it takes no column but must still be in the bound row.",
    pass: "read the claim",
    table: MEDALS,
    quote: "| 3 | kaz | 1 | 3 | 2 |",
    examples: [
      { claim: "kaz won silver 2 more times", keep: true },
      { claim: "kaz won gold 1 times", keep: true },
      { claim: "kaz won 5 more silver medals", keep: false },
    ],
  },
  {
    id: "R12",
    statement:
      "A number after `more than`, `over`, `less than`, `under`, `at least`, `at most`, `other than` and the like is a bound: it must be in the bound row and its column's cell there must meet it.",
    pass: "check cells",
    table: SKIPS,
    quote: "| ann lee | 44 | 31 | 9 |",
    examples: [
      { claim: "ann lee had more than 31 pf", keep: true },
      { claim: "ann lee had over 9 pa", keep: true },
      { claim: "ann lee had fewer than 31 pf", keep: false },
      { claim: "ann lee had a pf other than 44", keep: false },
    ],
  },
  {
    id: "R13",
    statement:
      "A label of both a row and a column (`total`) names the column when the claim quotes another row, and otherwise names the row, the column or both by what the rest of the claim names.",
    pass: "bind rows",
    table: TOTALS,
    quote: "| widgets | 10 | 15 | 25 |",
    examples: [
      { claim: "the total was 25", keep: true },
      { claim: "the total was 70", keep: false },
    ],
  },
  {
    id: "R14",
    statement:
      "A code (a number glued to one letter, `2r`, or after a letter and `-`, `fa-2`) is checked against its column even where that column holds text, and names the bound row when that row's label shows it.",
    pass: "check cells",
    table: table("| tournament | 2007 | 2008 |", "|---|---|---|", "| open | q1 | 2r |", "| cup | 2r | q2 |"),
    quote: "| open | q1 | 2r |",
    examples: [
      { claim: "in 2008 the open was 2r", keep: true },
      { claim: "in 2007 the open was 2r", keep: false },
    ],
  },
  {
    id: "R16",
    statement:
      "A claim that opens with `the`, a column and a modifier (`the serial number of …`) has that column as its subject, and the first number after its main copula is the subject's value.",
    pass: "bind columns",
    table: table(
      "| kiln | batch code | year fired |",
      "|---|---|---|",
      "| k1 | 5512 | 1987 |",
      "| k2 | 5513 | 1988 |",
    ),
    quote: "| k1 | 5512 | 1987 |",
    examples: [
      { claim: "the batch code for the kiln first lit in 1987 is 5512", keep: true },
      { claim: "the batch code for the kiln first lit in 1987 is 1987", keep: false },
    ],
  },
  {
    id: "R18",
    statement: "A month that names a column belongs to the day beside it, and no other number takes it.",
    pass: "bind columns",
    table: table(
      "| game | october | record |",
      "|---|---|---|",
      "| 1 | 10 | 0 - 2 - 2 |",
      "| 2 | 12 | 1 - 2 - 2 |",
    ),
    quote: "| 1 | 10 | 0 - 2 - 2 |",
    examples: [
      { claim: "10 october has 0 - 2 - 2 as the record", keep: true },
      { claim: "10 october has 0 - 3 - 2 as the record", keep: false },
    ],
  },
  {
    id: "R20",
    statement:
      "A bound may compare a named row with the quoted row: its number may be the quoted row's cell in the bound column, while the named row's cell must meet it.",
    pass: "check cells",
    table: SKIPS,
    quote: "| ann lee | 44 | 31 | 9 |",
    examples: [
      { claim: "bo ray had more than 9 ends", keep: true },
      { claim: "bo ray had fewer than 9 ends", keep: false },
      { claim: "bo ray had more than 9 pa", keep: false },
    ],
  },
  {
    id: "R28",
    statement:
      "A cell of the quoted row that the claim writes out in full around a number (`196 buried`) is that cell's, where its column is the value's, is named right before it, or the cell opens the claim or follows a word of circumstance.",
    pass: "check cells",
    table: table(
      "| week | viewers | title |",
      "|---|---|---|",
      "| w1 | 12 | 13 moon |",
      "| w2 | 14 | 15 rain |",
    ),
    quote: "| w1 | 12 | 13 moon |",
    examples: [
      { claim: "on 13 moon viewers were 12", keep: true },
      { claim: "on 15 rain viewers were 12", keep: false },
    ],
  },
  {
    id: "R33",
    statement:
      "A number right before the plural of the row labels' header (`in 11 games`) counts rows: it takes no column but must still be in the bound row.",
    pass: "read the claim",
    table: table(
      "| stage | date | top climber |",
      "|---|---|---|",
      "| 1 | june 11 | ann lee (10) |",
      "| 2 | june 12 | bo ray (8) |",
    ),
    quote: "| 1 | june 11 | ann lee (10) |",
    examples: [
      { claim: "ann lee was the top climber over 11 stages", keep: true },
      { claim: "ann lee was the top climber over 13 stages", keep: false },
    ],
  },
  {
    id: "R38",
    statement:
      "A header of `high` and a noun (`high points`) is also named by its noun, unless another label of the table is that noun.",
    pass: "find labels",
    table: table(
      "| match | rival | score | high points |",
      "|---|---|---|---|",
      "| 70 | otters | w 94 - 92 | cy day (23) |",
      "| 71 | herons | l 90 - 99 | al fox (20) |",
    ),
    quote: "| 70 | otters | w 94 - 92 | cy day (23) |",
    examples: [
      { claim: "cy day had 23 points when the otters came", keep: true },
      { claim: "cy day had 94 points when the otters came", keep: false },
    ],
  },
  {
    id: "R40",
    statement:
      "A number its column's cell does not hold may be in the bound row's cell of another column the claim names with no other number in between, where the two columns are named together (`an overall pick of 171`), since nearness alone does not tell them apart.",
    pass: "check cells",
    table: table(
      "| recruit | round | pick | overall |",
      "|---|---|---|---|",
      "| mo park | 7 | 17 | 171 |",
      "| li chen | 8 | 18 | 199 |",
    ),
    quote: "| mo park | 7 | 17 | 171 |",
    examples: [
      { claim: "mo park was taken as overall pick 171", keep: true },
      { claim: "mo park was taken as overall pick 7", keep: false },
      { claim: "mo park was overall 171 and pick 171", keep: false },
      { claim: "mo park was overall 7 and round 7", keep: false },
    ],
  },
  {
    id: "R43",
    statement:
      "A bound that names no column, about a named row other than the quoted one (`bo ray is a baker above 22`), compares the two rows in the column where the quoted row holds its number: the named row's cell there must meet it.",
    pass: "check cells",
    table: table(
      "| name | role | locker |",
      "|---|---|---|",
      "| ron hale | cook | 22 |",
      "| bo ray | baker | 23 |",
    ),
    quote: "| ron hale | cook | 22 |",
    examples: [
      { claim: "bo ray is a baker above 22", keep: true },
      { claim: "bo ray is a baker below 22", keep: false },
    ],
  },
  {
    id: "R44",
    statement:
      "A table whose first column numbers its rows (a rank, a position, a pick) also labels each row by its first column whose cells all start with a letter and all differ (`| 7 | elgin | 34 |` is the row of `elgin`).",
    pass: "find labels",
    table: table("| pos | team | pts |", "|---|---|---|", "| 1 | ayr | 56 |", "| 7 | elgin | 34 |"),
    quote: "| 1 | ayr | 56 |",
    examples: [
      { claim: "elgin had 34 pts", keep: true },
      { claim: "elgin had 56 pts", keep: false },
    ],
  },
  {
    id: "R46",
    statement:
      "A number followed within four words by a comparative and `than` (`4 seconds faster than`) is a difference between rows, which no cell holds: in a claim naming two rows it must be the difference of their cells in a column the claim names (any column when it names none), and in a claim naming one row it is not checked.",
    pass: "check cells",
    table: table("| ferry | crossing |", "|---|---|", "| red ferry | 119 |", "| blue ferry | 123 |"),
    quote: "| red ferry | 119 |",
    examples: [
      { claim: "the red ferry crossed 4 minutes faster than the blue ferry", keep: true },
      { claim: "the red ferry crossed 4 minutes faster", keep: false },
      { claim: "the red ferry crossed 6 minutes faster than the blue ferry", keep: false },
      { claim: "the red ferry crossed in 4 minutes", keep: false },
    ],
  },
  {
    id: "R47",
    statement:
      "A label with brackets is also named with a space just inside them (`xe ( 2009 )`), and one with ` + ` with `&` in its place, unless another label of the table is that text.",
    pass: "find labels",
    table: table(
      "| trim | boiler | twin + single boiler |",
      "|---|---|---|",
      "| mk (2009) | 2.4 l | 4.8 l |",
      "| mk (2010) | 3.0 l | 6.0 l |",
    ),
    quote: "| mk (2010) | 3.0 l | 6.0 l |",
    examples: [
      { claim: "the mk ( 2009 ) has a 2.4 l boiler", keep: true },
      { claim: "the mk ( 2009 ) has a 3.0 l boiler", keep: false },
      { claim: "the twin & single boiler of the mk (2010) holds 6.0 l", keep: true },
      { claim: "the twin & single boiler of the mk (2010) holds 3.0 l", keep: false },
    ],
  },
];

/**
 * The rule list of `docs/number-checks.md`: the guarantees first, then one line per rule, grouped by pass in
 * pass order.
 */
export function renderRuleList(
  rules: readonly BindingRule[] = BINDING_RULES,
  guarantees: readonly RowGuarantee[] = ROW_GUARANTEES,
): string {
  const lines: string[] = ["**guarantees** (every rule lives inside them)", ""];
  for (const each of guarantees) {
    const examples = each.examples.map(
      (example) => `\`${example.claim}\` ${example.keep ? "kept" : "dropped"}`,
    );
    lines.push(`- **${each.id}** ${each.statement} Over ${each.generator}. ${examples.join("; ")}.`);
  }
  lines.push("");
  for (const pass of BINDING_PASSES) {
    lines.push(`**${pass}**`, "");
    for (const rule of rules.filter((each) => each.pass === pass)) {
      const keeps = rule.examples.filter((each) => each.keep).map((each) => `\`${each.claim}\``);
      const drops = rule.examples.filter((each) => !each.keep).map((each) => `\`${each.claim}\``);
      lines.push(`- **${rule.id}** ${rule.statement} Keeps ${keeps.join(", ")}; drops ${drops.join(", ")}.`);
    }
    lines.push("");
  }
  return lines.join("\n").trimEnd();
}
