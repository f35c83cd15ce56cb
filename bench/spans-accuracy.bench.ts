// Accuracy of quote matching on 1,568 real answer spans (SQuAD/XQuAD and TAT-QA, see
// ../shared/data/README.md). Each span is quoted as a model might: exactly, re-cased, re-punctuated and
// with one token edited. Exact quotes must be found by both modes at the span (or at an earlier
// identical occurrence: the first match wins); re-cased and re-punctuated quotes by lenient at the same
// place; edited quotes by neither mode. Perturbations are deterministic (a seeded PRNG picks the edits).
// Set VERBOSE=1 to print the misses.
import { readFileSync } from "node:fs";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import type { PreparedSource } from "../src/core/prepared-source.js";
import { findQuote, trimQuote } from "../src/core/quotes/find-quote.js";
import { tokenizeLenient } from "../src/core/text/tokens.js";
import type { MatchMode, Range } from "../src/core/types.js";

interface SpanLine {
  id: string;
  context: string;
  answer: string;
  start: number;
}

interface Tally {
  passed: number;
  total: number;
  misses: string[];
}

const tally = (): Tally => ({ passed: 0, total: 0, misses: [] });

function count(target: Tally, passed: boolean, miss: () => string): void {
  target.total += 1;
  if (passed) target.passed += 1;
  else target.misses.push(miss());
}

/** mulberry32: a fixed seed gives the same edits on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const keysOf = (text: string): string[] => tokenizeLenient(text).map((token) => token.key);
const segmentsOf = (text: string): string => text.trim().split(/\s+/u).join(" ");
const sameKeys = (a: string, b: string): boolean => keysOf(a).join("\u0000") === keysOf(b).join("\u0000");

/**
 * The span as the matcher must see it: an answer that is itself a quotation (`"We are beggars,"`) loses
 * its enclosing marks like any quote, so its place moves inside them.
 */
function trimmedSpan(line: SpanLine): { text: string; start: number } {
  const text = trimQuote(line.answer);
  return { text, start: line.start + line.answer.indexOf(text) };
}

/**
 * True when `range` is the span's place, or an earlier occurrence of the same text (strict: the same
 * characters up to whitespace runs; lenient: the same tokens, compared from the first token, since the
 * range may take punctuation attached in the source).
 */
function isAtSpan(line: SpanLine, range: Range | null, mode: MatchMode): boolean {
  if (range === null) return false;
  const span = trimmedSpan(line);
  const slice = line.context.slice(range[0], range[1]);
  if (mode === "strict") return range[0] <= span.start && segmentsOf(slice) === segmentsOf(span.text);
  const matchedFirstToken = range[0] + (tokenizeLenient(slice)[0]?.start ?? 0);
  const spanFirstToken = span.start + (tokenizeLenient(span.text)[0]?.start ?? 0);
  return matchedFirstToken <= spanFirstToken && sameKeys(slice, span.text);
}

/**
 * True when the span starts or ends inside a word or number of its context (`(2,70` of `(2,700,000`):
 * a truncated span, which no boundary-exact or whole-token match may accept.
 */
function cutsToken(line: SpanLine): boolean {
  const span = trimmedSpan(line);
  const end = span.start + span.text.length;
  return tokenizeLenient(line.context).some(
    (token) => (token.start < span.start && span.start < token.end) || (token.start < end && end < token.end),
  );
}

/** Re-cased quotes: upper case, lower case, and each word capitalised; only those that differ. */
function recasedQuotes(answer: string): string[] {
  const title = answer
    .toLowerCase()
    .replace(/(^|\s)(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
  return [...new Set([answer.toUpperCase(), answer.toLowerCase(), title])].filter(
    (quote) => quote !== answer,
  );
}

const PUNCTUATION = /[\p{P}\p{S}]/u;

/** Re-punctuated quotes, as models re-punctuate; only those that differ from the answer. */
function repunctuatedQuotes(answer: string): { kind: string; quote: string }[] {
  const chars = Array.from(answer);
  const loose = (index: number) => index < 0 || index >= chars.length || /\s/u.test(chars[index] ?? "");
  // Punctuation next to whitespace or an end can go without joining two words.
  const dropped = chars
    .filter((char, index) => !(PUNCTUATION.test(char) && (loose(index - 1) || loose(index + 1))))
    .join("");
  const variants = [
    { kind: "loose punctuation dropped", quote: dropped },
    { kind: "hyphens and slashes to spaces", quote: answer.replace(/(?<=\S)[-\u2010-\u2015/](?=\S)/gu, " ") },
    { kind: "straight quotes wrapped", quote: `"${answer}"` },
    { kind: "curly quotes wrapped", quote: `\u201c${answer}\u201d` },
    { kind: "trailing period added", quote: answer.endsWith(".") ? answer : `${answer}.` },
    { kind: "apostrophes curled", quote: answer.replace(/'/g, "\u2019") },
    { kind: "parenthesised", quote: `(${answer})` },
  ];
  return variants.filter((variant) => variant.quote !== answer && trimQuote(variant.quote) !== "");
}

const REPLACEMENT_WORDS = [
  "zebra",
  "quartz",
  "violin",
  "nebula",
  "saffron",
  "walrus",
  "tundra",
  "lantern",
  "cobalt",
  "meadow",
  "glacier",
  "pelican",
];

/**
 * The answer with one token replaced by a token absent from the context: a number by another number
 * (its last digit changed), a word by a word from a fixed list. None when every candidate is present.
 */
function editedQuote(line: SpanLine, random: () => number): string | null {
  const tokens = tokenizeLenient(line.answer);
  const target = tokens[Math.floor(random() * tokens.length)];
  if (target === undefined) return null;
  const present = new Set(keysOf(line.context));
  const original = line.answer.slice(target.start, target.end);
  const candidates: string[] = [];
  if (/^[\d.,]+$/u.test(original)) {
    const offset = Math.floor(random() * 9);
    for (let step = 1; step <= 9; step++) {
      const digit = (Number(original.at(-1)) + offset + step) % 10;
      candidates.push(original.slice(0, -1) + String(digit));
    }
  }
  const first = Math.floor(random() * REPLACEMENT_WORDS.length);
  for (let step = 0; step < REPLACEMENT_WORDS.length; step++) {
    candidates.push(REPLACEMENT_WORDS[(first + step) % REPLACEMENT_WORDS.length] ?? "");
  }
  const replacement = candidates.find(
    (candidate) => candidate !== original && !present.has(keysOf(candidate)[0] ?? ""),
  );
  if (replacement === undefined) return null;
  return line.answer.slice(0, target.start) + replacement + line.answer.slice(target.end);
}

const rate = (target: Tally): string =>
  target.total === 0 ? "n/a" : `${((100 * target.passed) / target.total).toFixed(2)}%`;

/** Runs every span case and prints a table of counts and rates per case kind. */
export default async function run(): Promise<void> {
  const dataPath = findBenchData("spans.jsonl");
  if (dataPath === undefined) {
    console.log(missingBenchData("spans.jsonl"));
    return;
  }
  const lines = readFileSync(dataPath, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SpanLine);

  const exactStrict = tally();
  const exactLenient = tally();
  const exactEarlier = { strict: 0, lenient: 0 };
  const recasedLenient = tally();
  const recasedStrictRejects = tally();
  const repunctuated = new Map<string, Tally>();
  const editedStrictAnywhere = tally();
  const editedLenientAnywhere = tally();
  const editedStrictAtSpan = tally();
  const editedLenientAtSpan = tally();
  let editsImpossible = 0;
  const truncated: string[] = [];
  const random = seededRandom(20_240_601);
  let lookups = 0;
  let lookupMs = 0;

  // One prepared source per distinct context, as one request prepares its sources once.
  const prepared = new Map<string, PreparedSource>();
  for (const line of lines) {
    const source = prepared.get(line.context) ?? { id: line.id, text: line.context };
    prepared.set(line.context, source);
    const find = (quote: string, mode: MatchMode): Range | null => {
      lookups += 1;
      const startedAt = performance.now();
      const range = findQuote(source, quote, mode);
      lookupMs += performance.now() - startedAt;
      return range;
    };
    if (cutsToken(line)) {
      truncated.push(`${line.id}: ${JSON.stringify(line.answer)} at ${line.start}`);
      continue;
    }
    const describe = (kind: string, quote: string, range: Range | null) =>
      `${line.id} ${kind}: quote ${JSON.stringify(quote)} at ${line.start} -> ${JSON.stringify(range)} ${
        range === null ? "" : JSON.stringify(line.context.slice(range[0], range[1]))
      }`;

    for (const mode of ["strict", "lenient"] as const) {
      const range = find(line.answer, mode);
      count(mode === "strict" ? exactStrict : exactLenient, isAtSpan(line, range, mode), () =>
        describe(`exact, ${mode}`, line.answer, range),
      );
      if (range !== null && range[0] < line.start && isAtSpan(line, range, mode)) exactEarlier[mode] += 1;
    }

    for (const quote of recasedQuotes(line.answer)) {
      const lenient = find(quote, "lenient");
      count(recasedLenient, isAtSpan(line, lenient, "lenient"), () =>
        describe("re-cased, lenient", quote, lenient),
      );
      const strict = find(quote, "strict");
      count(recasedStrictRejects, !isAtSpan(line, strict, "strict"), () =>
        describe("re-cased, strict", quote, strict),
      );
    }

    for (const { kind, quote } of repunctuatedQuotes(line.answer)) {
      const target = repunctuated.get(kind) ?? tally();
      repunctuated.set(kind, target);
      const range = find(quote, "lenient");
      count(target, isAtSpan(line, range, "lenient"), () =>
        describe(`re-punctuated (${kind})`, quote, range),
      );
    }

    const edited = editedQuote(line, random);
    if (edited === null) {
      editsImpossible += 1;
    } else {
      for (const mode of ["strict", "lenient"] as const) {
        const range = find(edited, mode);
        const atSpan =
          range !== null && range[0] <= line.start + line.answer.length && range[1] >= line.start;
        count(mode === "strict" ? editedStrictAnywhere : editedLenientAnywhere, range === null, () =>
          describe(`edited, ${mode}`, edited, range),
        );
        count(mode === "strict" ? editedStrictAtSpan : editedLenientAtSpan, !atSpan, () =>
          describe(`edited at the span, ${mode}`, edited, range),
        );
      }
    }
  }

  const repunctuatedAll = tally();
  for (const target of repunctuated.values()) {
    repunctuatedAll.passed += target.passed;
    repunctuatedAll.total += target.total;
    repunctuatedAll.misses.push(...target.misses);
  }
  const rows: [string, Tally][] = [
    ["exact quote, strict finds it at the span", exactStrict],
    ["exact quote, lenient finds it at the span", exactLenient],
    ["re-cased (upper/lower/title), lenient finds it at the span", recasedLenient],
    ["re-cased, strict does not match it at the span", recasedStrictRejects],
    ["re-punctuated (all kinds), lenient finds it at the span", repunctuatedAll],
    ...[...repunctuated].map(([kind, target]): [string, Tally] => [`- ${kind}`, target]),
    ["edited (one token replaced), strict finds it nowhere", editedStrictAnywhere],
    ["edited, lenient finds it nowhere", editedLenientAnywhere],
    ["edited, strict does not match at the span", editedStrictAtSpan],
    ["edited, lenient does not match at the span", editedLenientAtSpan],
  ];

  console.log(
    `${lines.length} spans over ${prepared.size} distinct contexts; ${lookups} lookups took ${lookupMs.toFixed(0)} ms in all.`,
  );
  console.log(
    `${truncated.length} spans left out: they start or end inside a word or number of their context (a truncated answer, which the boundary and whole-token rules rightly refuse):`,
  );
  for (const span of truncated) console.log(`  ${span}`);
  console.log("");
  console.log("| case | passed | total | rate |");
  console.log("|---|---|---|---|");
  for (const [name, target] of rows)
    console.log(`| ${name} | ${target.passed} | ${target.total} | ${rate(target)} |`);
  console.log("");
  console.log(
    `Found at an earlier identical occurrence (first match wins): strict ${exactEarlier.strict}, lenient ${exactEarlier.lenient}.`,
  );
  console.log(
    `Spans with no possible edit (every candidate token present in the context): ${editsImpossible}.`,
  );

  const misses = rows.flatMap(([, target]) => (target === repunctuatedAll ? [] : target.misses));
  if (misses.length > 0) {
    console.log(`\n${misses.length} misses${process.env.VERBOSE === "1" ? ":" : " (VERBOSE=1 lists them)."}`);
    if (process.env.VERBOSE === "1") for (const miss of misses) console.log(`  ${miss}`);
  }
}
