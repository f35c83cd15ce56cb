import { getOrMake } from "../lists.js";
import type { ReadAllowance, StepCounter } from "../step-counter.js";
import { codePointAt, codePointBefore, isWordChar, splitsSurrogatePair } from "../text/index.js";
import { isDigitCode, type Mention, Mentions, type MentionTarget } from "../wording/index.js";
import { type AutomatonPattern, buildLabelAutomaton, type LabelAutomaton } from "./label-automaton.js";
import type { LabelEntry, LabelIndex } from "./label-index.js";

/** Where a claim names a table label, `[start, end)` in the folded claim, and what that label names. */
export type LabelOccurrence = Mention;

const digitAt = (text: string, index: number): boolean => isDigitCode(text.charCodeAt(index));

function isNumberSeparator(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code === 44 || code === 46;
}

// Word boundaries follow the lenient tokens: `.` or `,` between two digits is inside a number, so the
// label `5` is not named by `2.5` and `234` is not named by `1,234`.
/** True when a label mention may start at `start` of the folded claim (a word boundary, not inside a number). */
export function startsWord(folded: string, start: number): boolean {
  if (!isWordChar(codePointAt(folded, start))) return true;
  if (isWordChar(codePointBefore(folded, start))) return false;
  return !(digitAt(folded, start) && isNumberSeparator(folded, start - 1) && digitAt(folded, start - 2));
}

/** True when a label mention may end at `end` of the folded claim. */
export function endsWord(folded: string, end: number): boolean {
  if (!isWordChar(codePointBefore(folded, end))) return true;
  if (isWordChar(codePointAt(folded, end))) return false;
  return !(digitAt(folded, end - 1) && isNumberSeparator(folded, end) && digitAt(folded, end + 1));
}

// A symbol-only label (`$`, `%`) beside a number is that number's unit (`$1,910`, `12 %`, `$ (9,688)`),
// not a name: otherwise every `$29` of a claim would name a `$` column. Spaces, signs and parentheses
// belong to the number's spelling, so they are skipped to find the neighbour.
const SPELLING = new Set([" ", "(", ")", "+", "-", "\u2212"]);

/** True when a symbol-only label at `[start, end)` is not the unit of a neighbouring number. */
export function standsApart(folded: string, start: number, end: number): boolean {
  let before = start - 1;
  while (before >= 0 && SPELLING.has(folded.charAt(before))) before -= 1;
  let after = end;
  while (after < folded.length && SPELLING.has(folded.charAt(after))) after += 1;
  return !digitAt(folded, before) && !digitAt(folded, after);
}

const automatonOf = new WeakMap<LabelIndex, LabelAutomaton>();

// Built on first use and kept as long as the index: one per source and request.
function automaton(index: LabelIndex, counter?: StepCounter): LabelAutomaton {
  return getOrMake(automatonOf, index, () => buildLabelAutomaton(index, counter));
}

const WORD_START = 1;
const SYMBOL_START = 2;

// Where a label may start, as if the claim were read word by word: at the first character of a word that
// starts one (see `startsWord`), or at any character other than a space outside words (a symbol); 0
// elsewhere. Asked per match rather than marked for the whole claim, so a claim of megabytes gets no
// buffer of its length.
function labelStartAt(folded: string, start: number): number {
  const code = folded.charCodeAt(start);
  if (code === 32) return 0;
  // The second half of a surrogate pair is inside a word when the pair is a word character, else a symbol.
  if (splitsSurrogatePair(folded, start))
    return isWordChar(codePointAt(folded, start - 1)) ? 0 : SYMBOL_START;
  if (!isWordChar(codePointAt(folded, start))) return SYMBOL_START;
  // A word character after another is inside a word, and `startsWord` says so.
  return startsWord(folded, start) ? WORD_START : 0;
}

// Sorts the positions in `order` by `keys[position]` in [0, range), keeping the order of equal keys: a
// counting sort of integers, so ranking millions of occurrences allocates no object per occurrence.
function sortByKey(order: Int32Array, keys: ArrayLike<number>, range: number): Int32Array {
  const counts = new Int32Array(range + 1);
  for (let index = 0; index < order.length; index += 1) {
    const slot = (keys[order[index] as number] as number) + 1;
    counts[slot] = (counts[slot] as number) + 1;
  }
  for (let index = 1; index <= range; index += 1) {
    counts[index] = (counts[index] as number) + (counts[index - 1] as number);
  }
  const sorted = new Int32Array(order.length);
  for (let index = 0; index < order.length; index += 1) {
    const item = order[index] as number;
    const at = keys[item] as number;
    sorted[counts[at] as number] = item;
    counts[at] = (counts[at] as number) + 1;
  }
  return sorted;
}

function overAllowance(counter: StepCounter | undefined, steps: number): Mentions {
  if (counter !== undefined) counter.steps += steps;
  return new Mentions();
}

/**
 * The labels a folded claim names, at word boundaries: per table, where occurrences overlap the longest
 * wins (then the leftmost), so `net revenue` is named rather than `revenue` inside it. Ordered by table,
 * then in claim order.
 *
 * The claim is read once through an Aho–Corasick automaton of the labels; every occurrence found is then
 * ranked by table, length (longest first) and start with counting sorts, and kept unless it overlaps one
 * kept before it. A kept occurrence is at least as long as the one checked, so it cannot sit strictly
 * inside it: checking the first and last character of the new one is enough.
 */
export function findNamedLabels(
  folded: string,
  index: LabelIndex,
  counter?: StepCounter,
  allowance?: ReadAllowance,
): Mentions {
  if (index.size === 0) return new Mentions();
  const machine = automaton(index, counter);
  // Matches in order of their ends, as start, end and label, three numbers each: read first and charged to
  // the allowance at a label's count of tables, so a claim past it is given up before one occurrence is made.
  // A typed array doubled when full: a claim of a million mentions adds no array the collector copies.
  // Made at 15 numbers (60 bytes), which V8 keeps on its heap: a larger typed array is allocated outside
  // it, at several times the cost, and a typical claim has fewer matches.
  let matches = new Int32Array(15);
  let matchCount = 0;
  // The occurrences the matches make (one per match and table), so their list is made at its size.
  let occurrenceCount = 0;
  let steps = 2 * folded.length;
  let node = 0;
  // The automaton's tables as locals: this loop runs once per character of claims of megabytes.
  const { step, output, nextOutput, depth, patterns } = machine;
  for (let position = 0; position < folded.length; position += 1) {
    node = step(node, folded.charCodeAt(position));
    const end = position + 1;
    let match = (output[node] as number) >= 0 ? node : (nextOutput[node] as number);
    if (match < 0 || !endsWord(folded, end)) continue;
    for (; match >= 0; match = nextOutput[match] as number) {
      steps += 1;
      if (allowance !== undefined && --allowance.left < 0) return overAllowance(counter, steps);
      const start = end - (depth[match] as number);
      const pattern = output[match] as number;
      const label = patterns[pattern] as AutomatonPattern;
      if (labelStartAt(folded, start) !== (label.wordStart ? WORD_START : SYMBOL_START)) continue;
      if (label.symbolic && !standsApart(folded, start, end)) continue;
      steps += label.entries.length;
      if (allowance !== undefined) {
        allowance.left -= label.entries.length;
        if (allowance.left < 0) return overAllowance(counter, steps);
      }
      occurrenceCount += label.entries.length;
      if (matchCount + 3 > matches.length) {
        const larger = new Int32Array(matches.length * 2);
        larger.set(matches);
        matches = larger;
      }
      matches[matchCount] = start;
      matches[matchCount + 1] = end;
      matches[matchCount + 2] = pattern;
      matchCount += 3;
    }
  }
  // One occurrence per match and table, three integers each (no object per occurrence). A label's
  // entries are added to the claim's targets once, at its first match. When every label matched is in one
  // table, the matches become the occurrences in place (a label's index turned into its target's). While
  // each occurrence is of the first one's table and starts at or after the previous one's end, none
  // overlaps another: ranking would keep them all, in the order they came.
  if (matchCount === 0) {
    if (counter !== undefined) counter.steps += steps;
    return new Mentions();
  }
  const targets: MentionTarget[] = [];
  const inPlace = 3 * occurrenceCount === matchCount;
  const made = inPlace ? undefined : new Mentions(targets, occurrenceCount);
  // Per label, the index of its first entry in the targets, plus one (0: not added yet). A table by label
  // when the claim has at least as many matches as the source has labels (so it costs no more than the
  // matches), else a map: a short claim pays nothing per label of a long source.
  const byLabel = matchCount / 3 >= patterns.length ? new Int32Array(patterns.length) : undefined;
  const byLabelMap = byLabel === undefined ? new Map<number, number>() : undefined;
  let lastPattern = -1;
  let lastFirstTarget = 0;
  let disjointInOneTable = true;
  // The first occurrence's table and the last one's end, kept apart rather than read back from `found`.
  let firstTable = -1;
  let lastEnd = 0;
  for (let at = 0; at < matchCount; at += 3) {
    const start = matches[at] as number;
    const end = matches[at + 1] as number;
    const pattern = matches[at + 2] as number;
    const entries = (patterns[pattern] as AutomatonPattern).entries;
    if (pattern !== lastPattern) {
      let first = byLabel !== undefined ? (byLabel[pattern] as number) - 1 : (byLabelMap?.get(pattern) ?? -1);
      if (first < 0) {
        first = targets.length;
        for (const entry of entries) targets.push(entry);
        if (byLabel !== undefined) byLabel[pattern] = first + 1;
        else byLabelMap?.set(pattern, first);
      }
      lastPattern = pattern;
      lastFirstTarget = first;
    }
    for (let each = 0; each < entries.length; each += 1) {
      const table = (entries[each] as LabelEntry).table;
      if (firstTable < 0) firstTable = table;
      else if (disjointInOneTable && (table !== firstTable || start < lastEnd)) disjointInOneTable = false;
      lastEnd = end;
      if (made === undefined) matches[at + 2] = lastFirstTarget;
      else made.add(start, end, lastFirstTarget + each);
    }
  }
  const found = made ?? Mentions.over(targets, matches, occurrenceCount);
  const count = found.length;

  if (disjointInOneTable) {
    // Nothing to rank: every occurrence is kept, and they already come in claim order.
    if (counter !== undefined) counter.steps += steps + 2 * count;
    return found;
  }

  // Rank by table, then longest, then leftmost: stable counting sorts, least significant key first.
  const width = folded.length + 1;
  const tableOf = new Int32Array(count);
  const shortness = new Int32Array(count);
  let tables = 0;
  const foundStart = new Int32Array(count);
  for (let item = 0; item < count; item += 1) {
    const table = found.table(item);
    const start = found.start(item);
    tableOf[item] = table;
    if (table >= tables) tables = table + 1;
    foundStart[item] = start;
    shortness[item] = width - 1 - (found.end(item) - start);
  }
  let ranked: Int32Array = new Int32Array(count);
  for (let item = 0; item < count; item += 1) ranked[item] = item;
  ranked = sortByKey(ranked, foundStart, width);
  ranked = sortByKey(ranked, shortness, width);
  ranked = sortByKey(ranked, tableOf, tables);

  // `owner[i]` is 1 + the table whose kept occurrence covers character i.
  const owner = new Int32Array(folded.length);
  const kept: number[] = [];
  for (let rank = 0; rank < count; rank += 1) {
    const item = ranked[rank] as number;
    const start = found.start(item);
    const end = found.end(item);
    const mark = (tableOf[item] as number) + 1;
    if (owner[start] === mark || owner[end - 1] === mark) continue;
    kept.push(item);
    // Marks matter only to the same table's next occurrences, which come right after it in rank order.
    const next = ranked[rank + 1];
    if (next === undefined || tableOf[next] !== tableOf[item]) continue;
    // Kept occurrences of one table are disjoint, but many tables may each keep a long one over the same text.
    steps += end - start;
    if (allowance !== undefined) {
      allowance.left -= end - start;
      if (allowance.left < 0) return overAllowance(counter, steps);
    }
    for (let at = start; at < end; at += 1) owner[at] = mark;
  }
  const order = sortByKey(sortByKey(Int32Array.from(kept), foundStart, width), tableOf, tables);
  if (counter !== undefined) counter.steps += steps + 5 * count + 3 * width + 2 * tables;
  found.keepOnly(order);
  return found;
}
