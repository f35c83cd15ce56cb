import { MAX_EXPLAIN_TEXT_CHARS } from "../../../limits.js";
import { explainNumbers, type NumberCheck } from "../../claims/index.js";
import type { PreparedSource } from "../../prepared-source.js";
import type { StepCounter } from "../../step-counter.js";
import type { CheckNumbers, NumberMiss, Range } from "../../types.js";
import { valuesOf } from "../equivalences.js";
import { withoutScorelines } from "../scorelines.js";
import { originalSpan, type ReadableSource } from "../scraped-text.js";
import { forEachNumberKey, numberTerm, type SpanPlace, type SupportIndex } from "../support.js";
import type { AnswerCitation, CheckContext, JudgedClause, QuestionTerms } from "./types.js";

// A clause's numbers (`number_not_found`): which of them are checked, the values its support holds, and the
// first it states that its support does not.

// The number and date values (`valuesOf`) where the clause's numbers are checked: its supporting spans'
// sources (`source`, the default) or the spans themselves (`quote`, `row`); a clause that no span supports,
// its cited sources. Each source or span is read once per request.
export function supportValues(
  context: CheckContext,
  clause: JudgedClause,
  numbers: NumberCheck,
): (value: string) => boolean {
  const sets: ReadonlySet<string>[] = [];
  const read = (key: string, text: string): void => {
    let held = context.spanValues.get(key);
    if (held === undefined) {
      held = valuesOf(text);
      if (context.counter !== undefined) context.counter.steps += text.length;
      context.spanValues.set(key, held);
    }
    sets.push(held);
  };
  const { sources } = context.index;
  if (clause.citations.length === 0) {
    for (const at of clause.cited) read(`${at}`, (sources[at] as PreparedSource).text);
  } else {
    for (const [position, citation] of clause.citations.entries()) {
      const at = clause.supportSources[position] as number;
      if (numbers === "source") read(`${at}`, (sources[at] as PreparedSource).text);
      else read(`${at}:${citation.range[0]}:${citation.range[1]}`, citation.quote);
    }
  }
  // Looked up per value, never merged: a clause costs its numbers × its places, not the places' size.
  const [only] = sets;
  if (sets.length === 1 && only !== undefined) return (value) => only.has(value);
  return (value) => {
    for (const held of sets) if (held.has(value)) return true;
    return false;
  };
}

// `held` widened by one reading: a full date (`2018-05-07`) is held where a supporting span writes its day and
// month with no year (`died on May 7`) and a dateline, title or headline of that span's source (`datelineNumbers`)
// holds its year: a dated page writes the days of its own year so.
export function datedInSourceYear(
  context: CheckContext,
  clause: JudgedClause,
  held: (value: string) => boolean,
): (value: string) => boolean {
  return (value) => {
    if (held(value)) return true;
    if (!FULL_DATE.test(value) || !held(`md:${value.slice(5)}`)) return false;
    const year = value.slice(0, 4);
    return clause.supportSources.some((sourceIndex) =>
      context.index.datelineNumbers(sourceIndex, context.counter).has(year),
    );
  };
}

const FULL_DATE = /^\d{4}-\d{2}-\d{2}$/;

// With `source` numbers (answer mode's default), a number counts only where a span supporting the clause holds
// it (or the sentence beside it, or the source's dateline): the first number of `text` that the source holds
// only elsewhere, with the sentence it was seen in; null when every number is in its support (or the clause
// has no span: a sentence about the sources).
export function numberOutsideSupport(
  context: CheckContext,
  clause: JudgedClause,
  text: string,
): NumberMiss | null {
  if (clause.citations.length === 0) return null;
  const places = new Map<number, Range[]>();
  for (const [position, citation] of clause.citations.entries()) {
    const sourceIndex = clause.supportSources[position] as number;
    places.set(sourceIndex, [...(places.get(sourceIndex) ?? []), citation.range]);
  }
  const outside = firstNumberOutside(context, places, text);
  if (outside === null) return null;
  const first = clause.citations[0] as AnswerCitation;
  const firstSource = context.index.sources[clause.supportSources[0] as number] as PreparedSource;
  const miss: NumberMiss = {
    number: outside.number,
    checked: "quote",
    text: givenText(firstSource, first.range),
  };
  for (const sourceIndex of places.keys()) {
    const seen = context.index.sentenceHolding(sourceIndex, numberTerm(outside.key));
    if (seen === null) continue;
    miss.seen = givenText(context.index.sources[sourceIndex] as PreparedSource, seen);
    break;
  }
  return miss;
}

// The first number of `text` that no range of `places` (source index → ranges) holds, nor the sentence beside
// one, nor that source's dateline; null when there is none. O(text + the ranges' length).
export function firstNumberOutside(
  context: CheckContext,
  places: ReadonlyMap<number, readonly Range[]>,
  text: string,
): { number: string; key: string } | null {
  const { index, counter } = context;
  // The number keys of each span (read once per request, however many clauses it supports) and of each
  // source's datelines, looked up per number: a clause costs its numbers × its spans, not the spans' length.
  const held: ReadonlySet<string>[] = [];
  // The page-wide numbers (datelines, title, headline) of the sources whose spans state no year of their own,
  // and of those that do, which stand for every number but a year: a sentence that names its year ("in the
  // third quarter of 2023") is not about the page's.
  const pageHeld: ReadonlySet<string>[] = [];
  const pageHeldButYears: ReadonlySet<string>[] = [];
  for (const [sourceIndex, ranges] of places) {
    const source = index.sources[sourceIndex] as PreparedSource;
    let statesYear = false;
    for (const [start, end] of ranges) {
      const cacheKey = `#${sourceIndex}:${start}:${end}`;
      let keys = context.spanValues.get(cacheKey);
      if (keys === undefined) {
        const spanKeys = new Set<string>();
        if (counter !== undefined) counter.steps += end - start;
        forEachNumberKey(source.text.slice(start, end), (key) => spanKeys.add(key));
        context.spanValues.set(cacheKey, spanKeys);
        keys = spanKeys;
      }
      held.push(keys);
      if (!statesYear) for (const key of keys) if (isYear(key)) statesYear = true;
    }
    (statesYear ? pageHeldButYears : pageHeld).push(index.datelineNumbers(sourceIndex, counter));
  }
  let outside: { number: string; key: string } | null = null;
  forEachNumberKey(text, (key, start, end) => {
    if (outside !== null || held.some((keys) => keys.has(key))) return;
    if (pageHeld.some((keys) => keys.has(key))) return;
    if (!isYear(key) && pageHeldButYears.some((keys) => keys.has(key))) return;
    const term = numberTerm(key);
    for (const [sourceIndex, ranges] of places) if (index.besideRanges(sourceIndex, ranges, term)) return;
    outside = { number: text.slice(start, end), key };
  });
  return outside;
}

// A number key that reads as a year (1500 to 2099).
const YEAR_KEY = /^(?:1[5-9]|20)\d\d$/;
const isYear = (key: string): boolean => YEAR_KEY.test(key);

// The ranges of a span: its window and the sentences pooled into it.
export const spanRanges = (span: SpanPlace): Range[] => [span.range, ...(span.more ?? [])];

// The lines a range stands on, from the start of its first to the end of its last (as `explainRowNumbers`
// reports them). O(those lines).
function linesOf(text: string, [start, end]: Range): Range {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lineEnd = text.indexOf("\n", Math.max(start, end - 1));
  return [lineStart, lineEnd < 0 ? text.length : lineEnd];
}

// The text of `range` of a source as read (`readableSource`) in the source as the caller gave it, clipped for
// `detail`: what a caller reads in `detail` is in their own text.
const givenText = (source: PreparedSource, range: Range): string =>
  clip(originalSpan(source as ReadableSource, range).quote);

const clip = (text: string): string =>
  text.length > MAX_EXPLAIN_TEXT_CHARS ? `${text.slice(0, MAX_EXPLAIN_TEXT_CHARS)}…` : text;

// The clause text whose numbers are checked: context numbers (the question's, spelled small numbers, years
// of short ranges, untallied scorelines) blanked out, offsets kept.
export function numbersToCheck(masked: string, index: SupportIndex, question: QuestionTerms): string {
  return withoutQuestionNumbers(withoutSpelledNumbers(untalliedScorelines(masked, index), index), question);
}

// The first number of `text` (the clause's, from numbersToCheck) that none of its supporting spans' sources
// holds (per the number check), or null. A sentence about the sources that no span supports has its numbers
// looked for anywhere in the sources it cites (at most MAX_CITED_SOURCES_PER_CLAUSE), or, uncited, in the
// index of all sources' numbers (so its cost does not grow with the number of sources).
export function numberMiss(
  clause: JudgedClause,
  text: string,
  index: SupportIndex,
  numbers: NumberCheck,
  counter?: StepCounter,
): NumberMiss | null {
  if (clause.citations.length === 0 && clause.cited.length === 0) {
    if (counter !== undefined) counter.steps += text.length;
    let missing: string | null = null;
    forEachNumberKey(text, (key, start, end) => {
      if (missing === null && !index.knows(numberTerm(key), null)) missing = text.slice(start, end);
    });
    return missing === null ? null : { number: missing, checked: "source" };
  }
  const places =
    clause.citations.length > 0
      ? clause.citations.map((citation, position) => ({
          source: index.sources[clause.supportSources[position] as number] as PreparedSource,
          range: citation.range,
          check: numbers,
        }))
      : clause.cited.map((at) => {
          const source = index.sources[at] as PreparedSource;
          return { source, range: [0, source.text.length] as Range, check: "source" as const };
        });
  let first: NumberMiss | null = null;
  for (const { source, range, check } of places) {
    // Each place reads the clause's numbers (the source's are read once per request).
    if (counter !== undefined) counter.steps += text.length;
    const miss = explainNumbers(text, source, range, check);
    if (miss === null) return null;
    // A quote's text is the span's, and a line's the lines the span stands on, as the caller gave them.
    if (miss.text !== undefined && miss.checked === "quote") miss.text = givenText(source, range);
    else if (miss.text !== undefined && miss.checked === "line")
      miss.text = givenText(source, linesOf(source.text, range));
    first ??= miss;
  }
  return first;
}

// A scoreline is looked up only where the sources write scorelines themselves; where they tell the goals one by
// one, the tally is the reader's sum (docs/matching.md#answers).
function untalliedScorelines(text: string, index: SupportIndex): string {
  return index.writesScorelines() ? text : withoutScorelines(text);
}

// Small whole numbers are often spelled out in one text and written in digits in the other (`2 seasons`,
// `two seasons`).
const SPELLED = `zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty`.split(/\s+/);
const SMALL_NUMBER = /(?<![\p{L}\p{N}.,])\d{1,2}(?![\p{N}]|[.,]\p{N})/gu;

// Whether the sources hold any of the SPELLED words, asked once per index (its sources' words are read when
// it is built): sources that spell out no small number leave every clause's small numbers as they are.
const spellsSmall = new WeakMap<SupportIndex, boolean>();
function spellsSmallNumbers(index: SupportIndex): boolean {
  let spells = spellsSmall.get(index);
  if (spells === undefined) {
    spells = SPELLED.some((word) => index.knows(word, null));
    spellsSmall.set(index, spells);
  }
  return spells;
}

// A year written in full.
const FULL_YEAR = /(?<![\p{L}\p{N}.,])\d{4}(?![\p{N}]|[.,]\p{N})/gu;

// The clause with each small whole number blanked out when some source spells it out, and each year that
// ends a source's year range written short (`1998–99` holds 1999).
function withoutSpelledNumbers(text: string, index: SupportIndex): string {
  const spelled = !spellsSmallNumbers(index)
    ? text
    : text.replace(SMALL_NUMBER, (digits) => {
        const word = SPELLED[Number(digits)];
        return word !== undefined && index.knows(word, null) ? " ".repeat(digits.length) : digits;
      });
  const years = index.rangeEndYears();
  if (years.size === 0) return spelled;
  return spelled.replace(FULL_YEAR, (year) => (years.has(year) ? " ".repeat(year.length) : year));
}

// The clause with each number the question holds blanked out: the question's numbers are context.
function withoutQuestionNumbers(text: string, question: QuestionTerms): string {
  if (question.numbers.size === 0) return text;
  const parts: string[] = [];
  let at = 0;
  forEachNumberKey(text, (key, start, end) => {
    if (!question.numbers.has(key)) return;
    parts.push(text.slice(at, start), " ".repeat(end - start));
    at = end;
  });
  parts.push(text.slice(at));
  return parts.join("");
}

export function numberCheckOf(option: CheckNumbers | undefined): NumberCheck | undefined {
  if (option === undefined || option === true) return "source";
  return option === false ? undefined : option;
}
