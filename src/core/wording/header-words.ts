import { getOrMake } from "../lists.js";
import type { ReadAllowance, StepCounter } from "../step-counter.js";
import { codePointAt, isWordChar, wordEnd } from "../text/index.js";
import { Mentions, type MentionTarget } from "./mention.js";
import { ABBREVIATIONS } from "./word-lists.js";

/** A table as header stems need it: its header cells' texts, folded (lower case, single spaces). */
export interface HeaderTexts {
  header: readonly string[];
}

// One suffix goes, longest first, then a final `e`: `attendance`, `attended` → `attend`; `scored`,
// `scores`, `score` → `scor`; `weighed`, `weight` → `weigh`; `highest`, `high` → `high`. Stems shorter than three letters stay whole.
const SUFFIXES = ["ances", "ences", "ance", "ence", "ings", "ing", "ies", "est", "ed", "es", "s"];

/** The stem of a folded word: an abbreviation's meaning, else the word without its inflection. */
export function headerStem(word: string): string {
  const known = ABBREVIATIONS.get(word);
  if (known !== undefined) return known;
  let stem = word.endsWith("'s") ? word.slice(0, -2) : word;
  for (const suffix of SUFFIXES) {
    if (stem.endsWith(suffix) && stem.length - suffix.length >= 3 && !stem.endsWith(`s${suffix}`)) {
      stem = stem.slice(0, -suffix.length);
      break;
    }
  }
  if (stem.endsWith("ght")) stem = stem.slice(0, -1);
  if (stem.endsWith("e") && stem.length > 3) stem = stem.slice(0, -1);
  return stem;
}

/** A column header by the stems of its words: `games played` → `gam play`. */
export interface HeaderStems {
  /** Column lists by stem sequence (words joined by one space), per table: what a mention of it names. */
  byStems: Map<string, StemTarget[]>;
  /** Every key and every shorter run of its first words: a claim run that is none of them names nothing. */
  prefixes: Set<string>;
  /** The prefixes some longer prefix extends: a claim run that is none of them is not read further. */
  extended: Set<string>;
  /** The headers' own texts: a claim that writes one exactly is already read by the label finder. */
  exact: Set<string>;
  /** The claim words read so far, by text, shared by every claim that cites these headers. */
  stemOf: Map<string, WordStem>;
  /** The same for words of one ASCII character, by its code: read without a look-up by text. */
  stemOfChar: (WordStem | undefined)[];
  /** True when some key holds an ASCII digit: else a word starting with one is in no run (see `NO_STEM`). */
  digits: boolean;
}

/** The columns of one table a stem sequence names (and no row): the target of every mention of it. */
export interface StemTarget extends MentionTarget {
  columns: number[];
}

// The rows a header names: none, one list for all.
const NO_ROWS: readonly number[] = [];

/** A claim word as header stems read it, looked up once per source and distinct word. */
interface WordStem {
  stem: string;
  /** `prefixes.has(stem)`, `extended.has(stem)`, `byStems.get(stem)` and `exact.has(text)`. */
  prefix: boolean;
  extended: boolean;
  named: StemTarget[] | undefined;
  exact: boolean;
  /**
   * True when a run starting at this word names nothing: no header's stems start with it, or it is a whole
   * key that no longer one extends and that names nothing or is written exactly (the label finder's).
   */
  startsNothing: boolean;
}

// A claim word whose stem is in no key: a word starting with a digit when no key holds one (a stem keeps
// its word's first character: suffixes and abbreviations are letters). Read without cutting its text.
const NO_STEM: WordStem = {
  stem: "",
  prefix: false,
  extended: false,
  named: undefined,
  exact: false,
  startsNothing: true,
};
// The text `nextWord` gives such words; no real word is empty.
const DIGIT_WORD = "";

/** Headers are matched over at most this many claim words: a constant, so finding them stays linear. */
export const HEADER_STEM_WORDS = 3;

/** One word of a folded text: `[start, end)` and its text (`no.` and `'s` included). */
interface FoldedWord {
  start: number;
  end: number;
  text: string;
}

// Filled by `nextWord` and read before the next call: no object per word of a long claim.
const scratch: FoldedWord = { start: 0, end: 0, text: "" };

function filled(start: number, end: number, text: string): FoldedWord {
  scratch.start = start;
  scratch.end = end;
  scratch.text = text;
  return scratch;
}

// The next word of folded text at or after `at`, or null; `no.` keeps its dot (it is the abbreviation of
// number, and `no` alone is a word), and `#` is a word of its own. The word returned is overwritten by
// the next call.
// With `digitText` given, a word starting with an ASCII digit gets that text instead of its own (no slice).
function nextWord(folded: string, from: number, digitText?: string): FoldedWord | null {
  let at = from;
  while (at < folded.length) {
    const first = folded.charCodeAt(at);
    if (first === 35) return filled(at, at + 1, "#");
    const end = wordEnd(folded, at);
    if (end === at) {
      at += 1;
      continue;
    }
    const possessive =
      folded.charCodeAt(end) === 39 &&
      folded.charCodeAt(end + 1) === 115 &&
      !isWordChar(codePointAt(folded, end + 2));
    if (digitText !== undefined && first >= 48 && first <= 57)
      return filled(at, possessive ? end + 2 : end, digitText);
    const text = folded.slice(at, end);
    if (text === "no" && folded.charCodeAt(end) === 46) return filled(at, end + 1, "no.");
    return possessive ? filled(at, end + 2, `${text}'s`) : filled(at, end, text);
  }
  return null;
}

function stemKey(folded: string): string {
  const stems: string[] = [];
  for (let word = nextWord(folded, 0); word !== null; word = nextWord(folded, word.end))
    stems.push(headerStem(word.text));
  return stems.join(" ");
}

/**
 * Indexes the column headers of `tables` by stems. `tables[t].header[c]` is the folded header text, and
 * `variants` gives other texts the header also stands for (without a trailing parenthetical).
 */
export function buildHeaderStems(
  tables: readonly HeaderTexts[],
  variants: (header: string) => readonly string[] = () => [],
): HeaderStems {
  const byStems: HeaderStems["byStems"] = new Map();
  const prefixes = new Set<string>();
  const extended = new Set<string>();
  const exact = new Set<string>();
  // Tables often repeat their headers: each distinct text is stemmed and its prefixes added once.
  const keyOf = new Map<string, { key: string; words: number }>();
  tables.forEach((table, tableIndex) => {
    table.header.forEach((text, column) => {
      for (const each of [text, ...variants(text)]) {
        let stemmed = keyOf.get(each);
        if (stemmed === undefined) {
          exact.add(each);
          const key = stemKey(each);
          const keyWords = key.split(" ");
          for (let length = 1; length <= keyWords.length; length += 1) {
            const prefix = keyWords.slice(0, length).join(" ");
            prefixes.add(prefix);
            if (length < keyWords.length) extended.add(prefix);
          }
          stemmed = { key, words: keyWords.length };
          keyOf.set(each, stemmed);
        }
        const { key } = stemmed;
        if (key === "" || stemmed.words > HEADER_STEM_WORDS) continue;
        const list = getOrMake(byStems, key, () => []);
        const last = list[list.length - 1];
        if (last !== undefined && last.table === tableIndex) {
          // Columns come in order, each with its variants: one already listed is the last one (a wide
          // header of one repeated text would otherwise search a growing list at every column).
          if (last.columns[last.columns.length - 1] !== column) last.columns.push(column);
        } else list.push({ table: tableIndex, rows: NO_ROWS, columns: [column] });
      }
    });
  });
  let digits = false;
  for (const prefix of prefixes) if (/[0-9]/.test(prefix)) digits = true;
  return { byStems, prefixes, extended, exact, stemOf: new Map(), stemOfChar: [], digits };
}

/**
 * The column headers a folded claim names by inflection or abbreviation (`weighed` for `weight`, `pts`
 * for `points`), longest first at each word, as column-only occurrences in claim order. Each claim word
 * starts at most `HEADER_STEM_WORDS` look-ups, so this is linear in the claim. What they name is added to
 * `targets` (give another list's, to read both lists together).
 */
export function findHeaderStems(
  folded: string,
  stems: HeaderStems,
  counter?: StepCounter,
  allowance?: ReadAllowance,
  targets: MentionTarget[] = [],
): Mentions {
  const found = new Mentions(targets);
  if (stems.byStems.size === 0) return found;
  // Each stem target's index in `targets`, added at its first mention (made at the first: most claims
  // name no header by its stem).
  let targetIndex: Map<StemTarget, number> | undefined;
  // A ring of the next HEADER_STEM_WORDS words, read once each as the claim is walked: no array or object
  // per word of the claim, and each distinct word stemmed once per source.
  const known = stems.stemOf;
  const knownChar = stems.stemOfChar;
  const wordStarts: number[] = [];
  const wordEnds: number[] = [];
  const wordStems: WordStem[] = [];
  let head = 0;
  let held = 0;
  let readTo = 0;
  let wordCount = 0;
  let lastText = "";
  let lastStem: WordStem | undefined;
  // The runs of words from the first that start some header's stems, longest last.
  const runs: string[] = [];
  for (;;) {
    // Fill the ring (inline: a closure made per claim costs more than its code under some loaders).
    while (held < HEADER_STEM_WORDS) {
      const word = nextWord(folded, readTo, stems.digits ? undefined : DIGIT_WORD);
      if (word === null) break;
      readTo = word.end;
      wordCount += 1;
      // A word repeating the one before it (an attack's `x x x …`) needs no look-up, and one of a single
      // ASCII character (an attack's `a b a b …`) is read by its code.
      const code = word.text.length === 1 ? word.text.charCodeAt(0) : 128;
      let stem =
        word.text === DIGIT_WORD
          ? NO_STEM
          : word.text === lastText
            ? lastStem
            : code < 128
              ? knownChar[code]
              : known.get(word.text);
      if (stem === undefined) {
        const text = headerStem(word.text);
        const prefix = stems.prefixes.has(text);
        const extended = stems.extended.has(text);
        const named = stems.byStems.get(text);
        const exact = stems.exact.has(word.text);
        stem = {
          stem: text,
          prefix,
          extended,
          named,
          exact,
          startsNothing: !prefix || (!extended && (named === undefined || exact)),
        };
        if (code < 128) knownChar[code] = stem;
        else known.set(word.text, stem);
      }
      lastText = word.text;
      lastStem = stem;
      // A word starting no run, read with nothing before it in the ring, is passed at once: at the ring's
      // head it would be dropped alone, whatever follows it.
      if (held === 0 && stem.startsNothing) continue;
      const slot = (head + held) % HEADER_STEM_WORDS;
      wordStarts[slot] = word.start;
      wordEnds[slot] = word.end;
      wordStems[slot] = stem;
      held += 1;
    }
    if (held === 0) break;
    let runCount = 0;
    const first = wordStems[head] as WordStem;
    // The first word's look-ups are cached with its stem; longer runs are looked up as they grow.
    if (first.prefix) {
      let run = first.stem;
      runs[0] = run;
      runCount = 1;
      let extended = first.extended;
      while (runCount < held && extended) {
        const next = wordStems[(head + runCount) % HEADER_STEM_WORDS] as WordStem;
        if (next === NO_STEM) break;
        run += ` ${next.stem}`;
        if (!stems.prefixes.has(run)) break;
        runs[runCount] = run;
        runCount += 1;
        extended = stems.extended.has(run);
      }
    }
    let taken = 0;
    for (let length = runCount; length >= 1 && taken === 0; length -= 1) {
      const named = length === 1 ? first.named : stems.byStems.get(runs[length - 1] as string);
      if (named === undefined) continue;
      taken = length;
      const start = wordStarts[head] as number;
      const end = wordEnds[(head + length - 1) % HEADER_STEM_WORDS] as number;
      // A single word's text is the claim's text there: its look-up is cached too.
      if (length === 1 ? first.exact : stems.exact.has(folded.slice(start, end))) continue;
      // A stem many tables' headers share names each of them: every mention counts against the allowance.
      if (allowance !== undefined) {
        allowance.left -= named.length;
        if (allowance.left < 0) return new Mentions(targets);
      }
      for (const each of named) {
        targetIndex ??= new Map();
        const target = targetIndex.get(each);
        if (target !== undefined) found.add(start, end, target);
        else targetIndex.set(each, found.addTarget(start, end, each));
      }
    }
    const dropped = Math.max(1, taken);
    head = (head + dropped) % HEADER_STEM_WORDS;
    held -= dropped;
  }
  // Reading the words, then at most HEADER_STEM_WORDS look-ups of at most that many stems per word.
  if (counter !== undefined)
    counter.steps += folded.length + wordCount * HEADER_STEM_WORDS * HEADER_STEM_WORDS;
  return found;
}
