import { forEachWord, type Source, splitSentences } from "../../core/index.js";
import { MAX_LOCAL_FIELD_TEXT_CHARS } from "../../limits.js";
import { runSteps, type Steps } from "../../util.js";
import { findLabeledValues, type LabeledValue } from "./labeled-values.js";
import { extractTerms, labelTerm, labelTerms } from "./terms.js";

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

// A label must score more than half (Dice similarity with the field's name or description, 0..1): a
// one-word label meeting a two-word name ("Date" for `invoice_date`) scores 0.67, but a label sharing one
// of two words ("Invoice number" for `po_number`, "Due date" for `invoice_date`) scores 0.5, not enough.
const MIN_LABEL_SCORE = 0.5 + 1e-6;
// Each word dropped from the front of a label ("Billing address" read as "address") costs 10%, and so
// does a label read out of running prose rather than a `label: value` line or a table.
const DROPPED_WORD_FACTOR = 0.9;
const PROSE_FACTOR = 0.9;
// The name is the field's identity, the description only a hint: a label meeting the description
// counts 10% less than one meeting the name as well.
const DESCRIPTION_FACTOR = 0.9;
const CLAUSE_END = /,\s|;|\s\(|[.!?](?=\s|$)|[。！？|]/g;
const TAIL_START = /^[\s:=—–\-*_"'“]+/;
const TRAILING_CHAR = /[\s*_`.,;:]/;

/** Drops trailing spaces, emphasis and punctuation with a loop: `/[…]+$/` took O(n²) steps on a long run. */
function trimTrailing(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_CHAR.test(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end);
}
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
  return runSteps(fieldValueSteps(sources, schema));
}

/**
 * `findFieldValues` in steps: one after the sources are read, then one per field, so a 100-field schema
 * gives the event loop a turn between fields. Each field costs O(label terms × field terms), with the field's
 * terms read from at most `MAX_LOCAL_FIELD_TEXT_CHARS` (200) characters of its name and of its description: a
 * 19.6 KB description costs what its first 200 characters cost.
 */
export function* fieldValueSteps(
  sources: readonly Source[],
  schema: Readonly<Record<string, string>>,
): Steps<FoundField[]> {
  const labeled = findLabeledValues(sources);
  const byTerm = indexByTerm(labeled);
  yield;
  let sentences: SentenceIndex | undefined;
  const found: FoundField[] = [];
  for (const [name, description] of Object.entries(schema)) {
    const nameTerms = labelTerms(name.slice(0, MAX_LOCAL_FIELD_TEXT_CHARS));
    const descriptionTerms = labelTerms(description.slice(0, MAX_LOCAL_FIELD_TEXT_CHARS));
    const best = bestLabeledValue(labeled, byTerm, nameTerms, descriptionTerms);
    if (best !== null) {
      found.push({
        name,
        found: { value: best.value, source: best.source, start: best.start, end: best.end },
      });
    } else {
      sentences ??= indexSentences(sources);
      const wanted = nameTerms.length > 0 ? nameTerms : descriptionTerms;
      found.push({ name, found: sentenceTail(sources, sentences, wanted) });
    }
    yield;
  }
  return found;
}

/** Label term → indexes of the labelled values whose label holds it, ascending. */
function indexByTerm(labeled: readonly LabeledValue[]): Map<string, number[]> {
  const byTerm = new Map<string, number[]>();
  labeled.forEach((candidate, index) => {
    for (const term of new Set(candidate.label)) {
      const list = byTerm.get(term);
      if (list === undefined) byTerm.set(term, [index]);
      else list.push(index);
    }
  });
  return byTerm;
}

function bestLabeledValue(
  labeled: readonly LabeledValue[],
  byTerm: ReadonlyMap<string, readonly number[]>,
  nameTerms: readonly string[],
  descriptionTerms: readonly string[],
): LabeledValue | null {
  // Only a label sharing a term with the field can score; look those up instead of scoring them all
  // (a schema may have 100 fields and the sources thousands of labels).
  const fieldTerms = [...nameTerms, ...descriptionTerms];
  const indexes = new Set<number>();
  for (const [term, list] of byTerm) {
    if (fieldTerms.some((fieldTerm) => termsMatch(fieldTerm, term)))
      for (const index of list) indexes.add(index);
  }
  let best: LabeledValue | null = null;
  let bestScore = MIN_LABEL_SCORE - 1e-9;
  for (const index of [...indexes].sort((left, right) => left - right)) {
    const candidate = labeled[index] as LabeledValue;
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
    // A shortened label must still say everything the name says: "Billing address" may be read as
    // `address`, but "Invoice number" is not `order_number` just because it ends in "number".
    if (dropped > 0 && !nameTerms.every((term) => tail.some((other) => termsMatch(term, other)))) continue;
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

/** The sentences outside tables, with their label terms, and term → indexes of the sentences holding it. */
interface SentenceIndex {
  sentences: SentenceWords[];
  byTerm: Map<string, number[]>;
}

function indexSentences(sources: readonly Source[]): SentenceIndex {
  const sentences: SentenceWords[] = [];
  const byTerm = new Map<string, number[]>();
  const seenIds = new Set<string>();
  sources.forEach((source, sourceIndex) => {
    if (seenIds.has(source.id)) return;
    seenIds.add(source.id);
    for (const sentence of splitSentences(source.text)) {
      if (sentence.header !== null || sentence.text.startsWith("|")) continue;
      const words: { term: string; end: number }[] = [];
      forEachWord(sentence.text, (word, _start, end) => {
        const term = labelTerm(word);
        if (term !== null) words.push({ term, end });
      });
      const index = sentences.length;
      for (const { term } of words) {
        const list = byTerm.get(term);
        if (list === undefined) byTerm.set(term, [index]);
        else if (list[list.length - 1] !== index) list.push(index);
      }
      sentences.push({ sourceIndex, start: sentence.start, text: sentence.text, words });
    }
  });
  return { sentences, byTerm };
}

/** Indexes of the sentences that name every wanted term, ascending. */
function sentencesNaming(index: SentenceIndex, wanted: readonly string[]): number[] {
  const naming = wanted.map((term) => {
    const holding = new Set<number>();
    for (const [other, list] of index.byTerm) {
      if (termsMatch(term, other)) for (const sentence of list) holding.add(sentence);
    }
    return holding;
  });
  const [first, ...others] = naming;
  if (first === undefined) return [];
  return [...first]
    .filter((sentence) => others.every((holding) => holding.has(sentence)))
    .sort((left, right) => left - right);
}

/** The rest of the clause after the first sentence position where every wanted term has been named. */
function sentenceTail(
  sources: readonly Source[],
  index: SentenceIndex,
  wanted: readonly string[],
): FieldValue | null {
  if (wanted.length === 0) return null;
  for (const sentenceIndex of sentencesNaming(index, wanted)) {
    const sentence = index.sentences[sentenceIndex] as SentenceWords;
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
    const value = trimTrailing(sentence.text.slice(tailStart + lead, clauseEnd));
    if (!HAS_WORD.test(value) || extractTerms(value).length === 0) continue;
    const source = sources[sentence.sourceIndex] as Source;
    const start = sentence.start + tailStart + lead;
    return { value, source: source.id, start, end: start + value.length };
  }
  return null;
}
