import type { Source } from "../core/types.js";
import { extractTerms } from "./extract-terms.js";
import { findLabeledValues, type LabeledValue } from "./find-labeled-values.js";
import { labelTerms } from "./label-terms.js";
import { splitSentences } from "./split-sentences.js";
import { splitWords } from "./split-words.js";

/** A field's value in a source. Invariant: `value === sourceText.slice(start, end)`. */
export interface FieldValue {
  value: string;
  source: string;
  start: number;
  end: number;
}

/** One requested field and what was found for it (null: nothing relevant). */
export interface FoundField {
  name: string;
  found: FieldValue | null;
}

// A label must score at least this (Dice similarity with the field's name or description, 0..1): a
// one-word label meeting a two-word name ("Date" for `invoice_date`) scores 0.67; "Due date" 0.5.
const MIN_LABEL_SCORE = 0.5;
// Each word dropped from the front of a label ("Billing address" read as "address") costs 10%, and so
// does a label read out of running prose rather than a `label: value` line or a table.
const DROPPED_WORD_FACTOR = 0.9;
const PROSE_FACTOR = 0.9;
// The name is the field's identity, the description only a hint: a label meeting the description
// counts 10% less than one meeting the name as well.
const DESCRIPTION_FACTOR = 0.9;
const CLAUSE_END = /,\s|;|\s\(|[.!?](?=\s|$)|[。！？|]/g;
const TAIL_START = /^[\s:=—–\-*_"'“]+/;
const TRAILING = /[\s*_`.,;:]+$/;
const HAS_WORD = /[\p{L}\p{N}]/u;

/**
 * Finds a value for each field of `schema` (name → description), in schema order: the labelled value
 * (see `findLabeledValues`) whose label best matches the field's name or description words; failing
 * that, the rest of the clause after the first sentence that names every word of the field's name;
 * failing that, null. Ties go to the earlier value (sources in request order, then position).
 */
export function findFieldValues(
  sources: readonly Source[],
  schema: Readonly<Record<string, string>>,
): FoundField[] {
  const labeled = findLabeledValues(sources);
  let sentences: SentenceWords[] | undefined;
  return Object.entries(schema).map(([name, description]) => {
    const nameTerms = labelTerms(name);
    const descriptionTerms = labelTerms(description);
    const best = bestLabeledValue(labeled, nameTerms, descriptionTerms);
    if (best !== null) {
      return { name, found: { value: best.value, source: best.source, start: best.start, end: best.end } };
    }
    sentences ??= indexSentences(sources);
    const wanted = nameTerms.length > 0 ? nameTerms : descriptionTerms;
    return { name, found: sentenceTail(sources, sentences, wanted) };
  });
}

function bestLabeledValue(
  labeled: readonly LabeledValue[],
  nameTerms: readonly string[],
  descriptionTerms: readonly string[],
): LabeledValue | null {
  let best: LabeledValue | null = null;
  let bestScore = MIN_LABEL_SCORE - 1e-9;
  for (const candidate of labeled) {
    const score = labelScore(candidate, nameTerms, descriptionTerms);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** How well a label names the field: the best Dice similarity over the label's tails, less penalties. */
function labelScore(
  candidate: LabeledValue,
  nameTerms: readonly string[],
  descriptionTerms: readonly string[],
): number {
  const label = candidate.label;
  const wholeOnly = candidate.kind !== "line" && candidate.kind !== "prose";
  const kindFactor = candidate.kind === "prose" ? PROSE_FACTOR : 1;
  let best = 0;
  for (let dropped = 0; dropped < label.length; dropped++) {
    if (wholeOnly && dropped > 0) break;
    const tail = label.slice(dropped);
    const similarity = Math.max(dice(tail, nameTerms), DESCRIPTION_FACTOR * dice(tail, descriptionTerms));
    best = Math.max(best, similarity * kindFactor * DROPPED_WORD_FACTOR ** dropped);
  }
  return best;
}

/** Dice similarity of two term sets, where a term also meets its own short extension (`bill`/`billing`). */
function dice(left: readonly string[], right: readonly string[]): number {
  const leftSet = [...new Set(left)];
  const rightSet = [...new Set(right)];
  if (leftSet.length === 0 || rightSet.length === 0) return 0;
  const leftMatched = leftSet.filter((term) => rightSet.some((other) => termsMatch(term, other))).length;
  const rightMatched = rightSet.filter((term) => leftSet.some((other) => termsMatch(term, other))).length;
  return (2 * Math.min(leftMatched, rightMatched)) / (leftSet.length + rightSet.length);
}

/** Equal, or one extends the other by at most 3 characters and the shorter has at least 4. */
function termsMatch(left: string, right: string): boolean {
  if (left === right) return true;
  const [shorter, longer] = left.length <= right.length ? [left, right] : [right, left];
  return shorter.length >= 4 && longer.length - shorter.length <= 3 && longer.startsWith(shorter);
}

interface SentenceWords {
  sourceIndex: number;
  start: number;
  text: string;
  words: { term: string; end: number }[];
}

function indexSentences(sources: readonly Source[]): SentenceWords[] {
  const indexed: SentenceWords[] = [];
  const seenIds = new Set<string>();
  sources.forEach((source, sourceIndex) => {
    if (seenIds.has(source.id)) return;
    seenIds.add(source.id);
    for (const sentence of splitSentences(source.text)) {
      if (sentence.header !== null || sentence.text.startsWith("|")) continue;
      const words = splitWords(sentence.text).flatMap((word) =>
        labelTerms(word.word).map((term) => ({ term, end: word.end })),
      );
      indexed.push({ sourceIndex, start: sentence.start, text: sentence.text, words });
    }
  });
  return indexed;
}

/** The rest of the clause after the first sentence position where every wanted term has been named. */
function sentenceTail(
  sources: readonly Source[],
  sentences: readonly SentenceWords[],
  wanted: readonly string[],
): FieldValue | null {
  if (wanted.length === 0) return null;
  for (const sentence of sentences) {
    const missing = new Set(wanted);
    let tailStart = -1;
    for (const word of sentence.words) {
      for (const term of missing) if (termsMatch(term, word.term)) missing.delete(term);
      if (missing.size === 0) {
        tailStart = word.end;
        break;
      }
    }
    if (tailStart < 0) continue;
    const rest = sentence.text.slice(tailStart);
    const lead = TAIL_START.exec(rest)?.[0].length ?? 0;
    CLAUSE_END.lastIndex = tailStart + lead;
    const clauseEnd = CLAUSE_END.exec(sentence.text)?.index ?? sentence.text.length;
    const raw = sentence.text.slice(tailStart + lead, clauseEnd);
    const value = raw.replace(TRAILING, "");
    if (!HAS_WORD.test(value) || extractTerms(value).length === 0) continue;
    const source = sources[sentence.sourceIndex] as Source;
    const start = sentence.start + tailStart + lead;
    return { value, source: source.id, start, end: start + value.length };
  }
  return null;
}
