import type { SeededGenerator } from "./seeded-generator.js";

// Prose words never equal a table label (Station, Intake, Output, Losses, Share), so with
// `check_numbers: "row"` a prose claim names no label and is checked against its quote's line.
const DIVISIONS = [
  "Northern",
  "Southern",
  "Retail",
  "Cloud",
  "Logistics",
  "Marine",
  "Consumer",
  "Enterprise",
];
const CITIES = ["Lyon", "Osaka", "Porto", "Quito", "Tartu", "Leeds", "Perth", "Turin"];
const MONTHS = ["January", "March", "May", "July", "September", "November"];

/** The value columns of every generated table; the first column holds the row label `Station N`. */
export const tableColumns = ["Intake", "Output", "Losses", "Share"] as const;

/** One table row: its line as written, its label and its cells by column. */
export interface TableRow {
  line: string;
  label: string;
  values: Record<(typeof tableColumns)[number], string>;
}

/** A generated report: its text, and the sentences and table rows it holds in full. */
export interface Report {
  text: string;
  sentences: string[];
  tables: TableRow[][];
}

function money(gen: SeededGenerator): string {
  return `${gen.int(1, 9_999).toLocaleString("en-US")}.${gen.int(0, 9)}`;
}

/** One prose sentence with numbers: revenue, headcount, margin or churn. */
export function generateSentence(gen: SeededGenerator): string {
  const year = gen.int(2015, 2024);
  switch (gen.int(0, 3)) {
    case 0:
      return `The ${gen.pick(DIVISIONS)} division reported revenue of $${money(gen)} million in ${year}, up ${gen.int(1, 40)}% from the prior year.`;
    case 1:
      return `Headcount at the ${gen.pick(CITIES)} office reached ${gen.int(20, 4_000).toLocaleString("en-US")} employees by ${gen.pick(MONTHS)} ${gen.int(1, 28)}, ${year}.`;
    case 2:
      return `Operating margin for ${gen.pick(DIVISIONS)} customers was ${gen.int(1, 30)}.${gen.int(0, 9)}%, against ${gen.int(1, 30)}.${gen.int(0, 9)}% a year earlier.`;
    default:
      return `About ${gen.int(100, 90_000).toLocaleString("en-US")} customers in ${gen.pick(CITIES)} renewed, and churn fell to ${gen.int(1, 9)}.${gen.int(0, 9)}% over ${gen.int(2, 36)} months.`;
  }
}

/** A table of 6 to 10 rows labelled `Station N` from `firstStation` on, with a cell per `tableColumns` entry. */
export function generateTable(gen: SeededGenerator, firstStation: number): TableRow[] {
  const rows: TableRow[] = [];
  const count = gen.int(6, 10);
  for (let index = 0; index < count; index += 1) {
    const label = `Station ${firstStation + index}`;
    const values = {
      Intake: money(gen),
      Output: money(gen),
      Losses: `(${gen.int(1, 999).toLocaleString("en-US")})`,
      Share: `${gen.int(1, 60)}.${gen.int(0, 9)}%`,
    };
    rows.push({
      label,
      values,
      line: `| ${label} | ${tableColumns.map((column) => values[column]).join(" | ")} |`,
    });
  }
  return rows;
}

/**
 * A report of prose paragraphs and markdown tables, from `gen`. It stops before the block that would pass
 * `chars`; with `exact`, it ends instead on a prose paragraph cut to make exactly `chars` characters (never on
 * a cut table row, whose stub would read as a table label). Each anchor sentence is put into one of the first
 * paragraphs, at a place chosen by `gen`.
 */
export function generateReport(
  gen: SeededGenerator,
  options: { title: string; chars: number; exact?: boolean; anchors?: readonly string[] },
): Report {
  const anchors = [...(options.anchors ?? [])];
  const blocks = [options.title];
  let length = options.title.length;
  const sentences: string[] = [];
  const tables: TableRow[][] = [];
  let station = 1;
  for (;;) {
    const isTable = anchors.length === 0 && gen.int(0, 3) === 0;
    const rows = isTable ? generateTable(gen, station) : [];
    const paragraph = isTable ? [] : Array.from({ length: gen.int(3, 6) }, () => generateSentence(gen));
    const anchor = anchors.shift();
    if (anchor !== undefined) paragraph.splice(gen.int(0, paragraph.length), 0, anchor);
    const block = isTable
      ? [
          `| Station | ${tableColumns.join(" | ")} |`,
          `| --- | ${tableColumns.map(() => "---:").join(" | ")} |`,
          ...rows.map((row) => row.line),
        ].join("\n")
      : paragraph.join(" ");
    if (length + 2 + block.length > options.chars) {
      if (options.exact) blocks.push(filler(gen, options.chars - length - 2));
      break;
    }
    blocks.push(block);
    length += 2 + block.length;
    if (isTable) {
      tables.push(rows);
      station += rows.length;
    } else sentences.push(...paragraph);
  }
  const text = blocks.join("\n\n");
  return {
    text: options.exact ? text.padEnd(options.chars).slice(0, options.chars) : text,
    sentences,
    tables,
  };
}

/** Prose of exactly `length` characters (none when `length` ≤ 0), its last sentence cut short. */
function filler(gen: SeededGenerator, length: number): string {
  let text = "";
  while (text.length < length) text += `${text === "" ? "" : " "}${generateSentence(gen)}`;
  return text.slice(0, Math.max(0, length));
}
