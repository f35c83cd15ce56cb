import type { StepCounter } from "../step-counter.js";
import { isWordChar, wordEnd } from "../text/index.js";
import type { Mention } from "./mention.js";

/** A table as header stems need it: its header cells' texts, folded (lower case, single spaces). */
export interface HeaderTexts {
  header: readonly string[];
}

// Abbreviations and irregular forms seen in headers and in people's wording, as the stem they stand for.
// Deterministic and small on purpose: a word not listed here is only stemmed.
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ["pts", "point"],
  ["pt", "point"],
  ["no.", "number"],
  ["num", "number"],
  ["#", "number"],
  ["gp", "gam play"],
  ["att", "attend"],
  ["avg", "averag"],
  ["ave", "averag"],
  ["pct", "percent"],
  ["yds", "yard"],
  ["yd", "yard"],
  ["pos", "position"],
  ["won", "win"],
  ["pld", "play"],
  ["apps", "appear"],
  ["pop", "population"],
]);

// One suffix goes, longest first, then a final `e`: `attendance`, `attended` → `attend`; `scored`,
// `scores`, `score` → `scor`; `weighed`, `weight` → `weigh`; `highest`, `high` → `high`. Stems shorter than three letters stay whole.
const SUFFIXES = ["ances", "ences", "ance", "ence", "ings", "ing", "ies", "est", "ed", "es", "s"];

/** The stem of a folded word: an abbreviation's meaning, else the word without its inflection. */
export function stemWord(word: string): string {
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
  /** Column lists by stem sequence (words joined by one space), per table. */
  byStems: Map<string, { table: number; columns: number[] }[]>;
  /** Every key and every shorter run of its first words: a claim run that is none of them names nothing. */
  prefixes: Set<string>;
  /** The headers' own texts: a claim that writes one exactly is already read by the label finder. */
  exact: Set<string>;
}

/** Headers are matched over at most this many claim words: a constant, so finding them stays linear. */
export const HEADER_STEM_WORDS = 3;

/** The words of a folded text, `[starts[i], ends[i])`, and their stems. */
interface StemmedWords {
  starts: number[];
  ends: number[];
  stems: string[];
}

// The words of folded text with their stems; `no.` keeps its dot (it is the abbreviation of number, and
// `no` alone is a word), and `#` is a word of its own. A word's stem is computed once per distinct word.
function stemmedWords(folded: string): StemmedWords {
  const words: StemmedWords = { starts: [], ends: [], stems: [] };
  const known = new Map<string, string>();
  let at = 0;
  while (at < folded.length) {
    let wordEndAt: number;
    let wordText: string;
    if (folded.charCodeAt(at) === 35) {
      wordText = "#";
      wordEndAt = at + 1;
    } else {
      const end = wordEnd(folded, at);
      if (end === at) {
        at += 1;
        continue;
      }
      wordText = folded.slice(at, end);
      wordEndAt = end;
      if (wordText === "no" && folded.charCodeAt(end) === 46) {
        wordText = "no.";
        wordEndAt = end + 1;
      } else if (
        folded.charCodeAt(end) === 39 &&
        folded.charCodeAt(end + 1) === 115 &&
        !isWordChar(folded.codePointAt(end + 2))
      ) {
        wordText += "'s";
        wordEndAt = end + 2;
      }
    }
    let stem = known.get(wordText);
    if (stem === undefined) {
      stem = stemWord(wordText);
      known.set(wordText, stem);
    }
    words.starts.push(at);
    words.ends.push(wordEndAt);
    words.stems.push(stem);
    at = wordEndAt;
  }
  return words;
}

function stemKey(folded: string): string {
  return stemmedWords(folded).stems.join(" ");
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
  const exact = new Set<string>();
  tables.forEach((table, tableIndex) => {
    table.header.forEach((text, column) => {
      for (const each of [text, ...variants(text)]) {
        exact.add(each);
        const key = stemKey(each);
        const keyWords = key.split(" ");
        for (let length = 1; length <= keyWords.length; length += 1)
          prefixes.add(keyWords.slice(0, length).join(" "));
        if (key === "" || key.split(" ").length > HEADER_STEM_WORDS) continue;
        let list = byStems.get(key);
        if (list === undefined) {
          list = [];
          byStems.set(key, list);
        }
        const last = list[list.length - 1];
        if (last !== undefined && last.table === tableIndex) {
          if (!last.columns.includes(column)) last.columns.push(column);
        } else list.push({ table: tableIndex, columns: [column] });
      }
    });
  });
  return { byStems, prefixes, exact };
}

/**
 * The column headers a folded claim names by inflection or abbreviation (`weighed` for `weight`, `pts`
 * for `points`), longest first at each word, as column-only occurrences in claim order. Each claim word
 * starts at most `HEADER_STEM_WORDS` look-ups, so this is linear in the claim.
 */
export function findHeaderStems(folded: string, stems: HeaderStems, counter?: StepCounter): Mention[] {
  const found: Mention[] = [];
  if (stems.byStems.size === 0) return found;
  const { starts, ends, stems: wordStems } = stemmedWords(folded);
  const count = wordStems.length;
  // Reading the words, then at most HEADER_STEM_WORDS look-ups of at most that many stems per word.
  if (counter !== undefined) counter.steps += folded.length + count * HEADER_STEM_WORDS * HEADER_STEM_WORDS;
  for (let first = 0; first < count; ) {
    // The runs of words from `first` that start some header's stems, longest last.
    const runs: string[] = [];
    let run = wordStems[first] as string;
    while (stems.prefixes.has(run)) {
      runs.push(run);
      const next = first + runs.length;
      if (runs.length === HEADER_STEM_WORDS || next >= count) break;
      run += ` ${wordStems[next] as string}`;
    }
    let taken = 0;
    for (let length = runs.length; length >= 1 && taken === 0; length -= 1) {
      const named = stems.byStems.get(runs[length - 1] as string);
      if (named === undefined) continue;
      taken = length;
      const start = starts[first] as number;
      const end = ends[first + length - 1] as number;
      if (stems.exact.has(folded.slice(start, end))) continue;
      for (const each of named)
        found.push({ start, end, table: each.table, rows: [], columns: each.columns });
    }
    first += Math.max(1, taken);
  }
  return found;
}
