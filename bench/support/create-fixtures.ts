import type { Source } from "../../src/core/types.js";
import type { CreateRequest, EvalRequest } from "../../src/wire/schemas.js";
import { generateReport, type TableRow, tableColumns } from "./generate-report.js";
import { seededGenerator } from "./seeded-generator.js";

/** A create request, the model output the instant gateway answers it with, and the result it must give. */
export interface CreateFixture {
  request: CreateRequest;
  /** The model's reply: `{"claims": [...]}` as text. */
  modelOutput: string;
  expected: { citations: number; unsupported: Record<string, number> };
}

interface ModelClaim {
  claim: string;
  quote: string;
  source: string;
}

const question = [{ role: "user" as const, content: "Summarise what the sources say." }];

function modelOutput(claims: readonly ModelClaim[]): string {
  return JSON.stringify({ claims });
}

/** 2 sources (about 400 characters), 3 claims that all hold; default options. */
export function smallCreateFixture(model: string): CreateFixture {
  const sources: Source[] = [
    {
      id: "profile",
      text: "Northwind Traders opened its first warehouse in Lyon in 2012. The company employs 240 people across four sites. Revenue for 2023 was 18.4 million euros, up 7% from 2022.",
    },
    {
      id: "operations",
      text: "The Lyon warehouse handles 1,200 orders per day. A second site in Porto opened in March 2019 and ships to Spain and Portugal.",
    },
  ];
  const claims: ModelClaim[] = [
    {
      claim: "Northwind opened its first warehouse in Lyon in 2012.",
      quote: "opened its first warehouse in Lyon in 2012",
      source: "profile",
    },
    {
      claim: "Revenue for 2023 was 18.4 million euros.",
      quote: "Revenue for 2023 was 18.4 million euros",
      source: "profile",
    },
    {
      claim: "The Lyon warehouse handles 1,200 orders a day.",
      quote: "The Lyon warehouse handles 1,200 orders per day.",
      source: "operations",
    },
  ];
  return {
    request: { model, messages: question, sources },
    modelOutput: modelOutput(claims),
    expected: { citations: 3, unsupported: {} },
  };
}

/**
 * 10 sources of prose and markdown tables totalling just under 100,000 characters, and 100 claims checked
 * with `mode: "lenient"` and `check_numbers: "row"`: 60 prose sentences and 30 table cells that hold, 5
 * re-cased quotes (held by lenient matching) and 5 cells claiming another row's value (`number_not_found`).
 */
export function largeCreateFixture(model: string): CreateFixture {
  const gen = seededGenerator(20_261_122);
  const sources: Source[] = [];
  const prose: { source: string; text: string }[] = [];
  const rows: { source: string; rows: TableRow[] }[] = [];
  for (let index = 0; index < 10; index += 1) {
    const id = `report-${index + 1}`;
    const report = generateReport(gen, { title: `Annual report ${index + 1}.`, chars: 10_000 });
    sources.push({ id, text: report.text });
    for (const text of report.sentences) prose.push({ source: id, text });
    for (const table of report.tables) rows.push({ source: id, rows: table });
  }
  const claims: ModelClaim[] = [];
  for (let index = 0; index < 60; index += 1) {
    const { source, text } = gen.pick(prose);
    claims.push({ claim: text, quote: text, source });
  }
  for (let index = 0; index < 30; index += 1) {
    const { source, rows: table } = gen.pick(rows);
    const row = gen.pick(table);
    const column = gen.pick(tableColumns);
    claims.push({ claim: `${row.label} ${column} was ${row.values[column]}.`, quote: row.line, source });
  }
  for (let index = 0; index < 5; index += 1) {
    const { source, text } = gen.pick(prose);
    claims.push({ claim: text, quote: text.toUpperCase(), source });
  }
  for (let added = 0; added < 5; ) {
    const { source, rows: table } = gen.pick(rows);
    const index = gen.int(0, table.length - 1);
    const row = table[index] as TableRow;
    const other = table[(index + 1) % table.length] as TableRow;
    const column = gen.pick(["Intake", "Output"] as const);
    // The wrong value must not occur anywhere on the claimed row, or the row check could not tell.
    if (row.line.includes(other.values[column])) continue;
    claims.push({ claim: `${row.label} ${column} was ${other.values[column]}.`, quote: row.line, source });
    added += 1;
  }
  return {
    request: {
      model,
      messages: question,
      sources,
      mode: "lenient",
      check_numbers: "row",
    },
    modelOutput: modelOutput(claims),
    expected: { citations: 95, unsupported: { number_not_found: 5 } },
  };
}

/** The problem with a create result, or undefined when it matches the fixture (ranges slice to quotes). */
export function checkCreateResult(body: unknown, fixture: CreateFixture): string | undefined {
  const result = body as {
    citations?: { quote: string; source: string; range: [number, number] }[];
    unsupported?: { reason: string }[];
  };
  if (!Array.isArray(result.citations) || !Array.isArray(result.unsupported))
    return `not a create result: ${JSON.stringify(body).slice(0, 300)}`;
  if (result.citations.length !== fixture.expected.citations)
    return `expected ${fixture.expected.citations} citations, got ${result.citations.length}`;
  const reasons: Record<string, number> = {};
  for (const { reason } of result.unsupported) reasons[reason] = (reasons[reason] ?? 0) + 1;
  if (JSON.stringify(reasons) !== JSON.stringify(fixture.expected.unsupported))
    return `expected unsupported ${JSON.stringify(fixture.expected.unsupported)}, got ${JSON.stringify(reasons)}`;
  for (const citation of result.citations) {
    const text = fixture.request.sources.find((source) => source.id === citation.source)?.text ?? "";
    if (text.slice(citation.range[0], citation.range[1]) !== citation.quote)
      return `a citation's range does not slice to its quote: ${JSON.stringify(citation)}`;
  }
  return undefined;
}

/** An eval request of `count` cases, each the sources and messages of `fixture`. */
export function repeatedEvalRequest(fixture: CreateFixture, count: number): EvalRequest {
  return {
    model: fixture.request.model,
    cases: Array.from({ length: count }, () => ({
      messages: fixture.request.messages,
      sources: fixture.request.sources,
    })),
  };
}

const anchors = [
  "The audit committee met 11 times during the year and reviewed 4 internal reports.",
  "Net cash from operations rose to $412.6 million, the highest in the company's history.",
  "The board proposed a dividend of 1.85 euros, payable on June 14.",
];

/**
 * An eval of `count` cases whose sources are 2 distinct generated reports of exactly `charsPerCase / 2`
 * characters each (seeded per case), and the one model output that grounds 3 claims in every case: three
 * anchor sentences planted in each case's first report at seeded places.
 */
export function largeEvalFixture(
  model: string,
  count: number,
  charsPerCase: number,
): { request: EvalRequest; modelOutput: string } {
  const cases = Array.from({ length: count }, (_, index) => {
    const gen = seededGenerator(1_000 + index);
    const half = charsPerCase / 2;
    return {
      messages: question,
      sources: [
        {
          id: "report",
          text: generateReport(gen, { title: `Report ${index}.`, chars: half, exact: true, anchors }).text,
        },
        {
          id: "appendix",
          text: generateReport(gen, { title: `Appendix ${index}.`, chars: half, exact: true }).text,
        },
      ],
    };
  });
  return {
    request: { model, cases },
    modelOutput: modelOutput(anchors.map((text) => ({ claim: text, quote: text, source: "report" }))),
  };
}

const fillerWords = [
  "the",
  "quarterly",
  "review",
  "noted",
  "steady",
  "progress",
  "across",
  "regional",
  "teams",
];

/**
 * A large model output for `largeEvalFixture`'s cases, of about `chars` characters of JSON: claims in pairs,
 * one that holds (an anchor sentence followed by `claimChars` of wording, quoting the anchor) and one whose
 * quote of `claimChars` invented words no source holds (`quote_not_found`). Half the claims are citations,
 * half unsupported, so a case's create-style result is about as large as the output.
 */
export function largeAnswerOutput(
  chars: number,
  claimChars = 2_000,
): { modelOutput: string; claims: number } {
  const gen = seededGenerator(4_242);
  const wording = (length: number, invented: boolean) => {
    const words: string[] = [];
    for (let total = 0; total < length; ) {
      const word = invented
        ? `${gen.pick(fillerWords)}x${gen.int(0, 9_999).toString(36)}`
        : gen.pick(fillerWords);
      words.push(word);
      total += word.length + 1;
    }
    return words.join(" ");
  };
  const claims: ModelClaim[] = [];
  for (let index = 0, size = 0; size < chars; index += 1) {
    const anchor = anchors[index % anchors.length] as string;
    const held = { claim: `${anchor} Then ${wording(claimChars, false)}.`, quote: anchor, source: "report" };
    const invented = {
      claim: `${wording(claimChars, false)}.`,
      quote: wording(claimChars, true),
      source: "report",
    };
    claims.push(held, invented);
    size += JSON.stringify(held).length + JSON.stringify(invented).length + 2;
  }
  return { modelOutput: modelOutput(claims), claims: claims.length };
}
