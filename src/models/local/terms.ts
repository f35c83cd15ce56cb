import { foldWord, forEachWord, splitWords } from "../../core/index.js";

/** The label term of a folded word (possessive dropped, plural stemmed), or null for a stop word. */
export function toTerm(word: string): string | null {
  const bare = withoutPossessive(word);
  if (bare === "" || isStopWord(bare)) return null;
  return singularStem(bare);
}

/** The ranking term of a folded word (possessive dropped, stemmed by `rankingStem`), or null for a stop word. */
export function toRankingTerm(word: string): string | null {
  const bare = withoutPossessive(word);
  if (bare === "" || isStopWord(bare)) return null;
  return rankingStem(bare);
}

const withoutPossessive = (word: string): string => (word.endsWith("'s") ? word.slice(0, -2) : word);

/**
 * The content terms of `text` for ranking sentences, in order and with repeats: folded, stemmed by
 * `rankingStem`, without stop words.
 */
export function extractTerms(text: string): string[] {
  const terms: string[] = [];
  forEachWord(text, (word) => {
    const term = toRankingTerm(word);
    if (term !== null) terms.push(term);
  });
  return terms;
}

// Abbreviations common in labels, mapped to the word a field name or description would use.
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ["no", "number"],
  ["nr", "number"],
  ["num", "number"],
  ["amt", "amount"],
  ["qty", "quantity"],
  ["tel", "phone"],
  ["telephone", "phone"],
  ["addr", "address"],
  ["dept", "department"],
]);

/**
 * The terms of a label, a field name or a field description, in order: `invoice_number`,
 * `invoiceNumber`, `Invoice No.` and `the invoice number` all give `["invoice", "number"]`.
 */
export function labelTerms(text: string): string[] {
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/[_.-]+/g, " ");
  const terms: string[] = [];
  for (const { word } of splitWords(spaced)) {
    const term = labelTerm(word);
    if (term !== null) terms.push(term);
  }
  return terms;
}

/** The term of one folded word of a label: abbreviation spelled out, then as `toTerm`. */
export function labelTerm(word: string): string | null {
  return toTerm(ABBREVIATIONS.get(word) ?? word);
}

const PLAIN_LATIN = /^[a-z]+$/;

/**
 * Reduces an English plural to its singular with Harman's S-stemmer (`companies` → `company`, `sales` →
 * `sale`, `quarters` → `quarter`; `business`, `status` stay). Conservative on purpose: labels keep
 * readable terms and it only has to make a field's word and a label's word meet. Expects a folded word;
 * other scripts pass unchanged.
 */
export function singularStem(word: string): string {
  if (word.length <= 3 || !PLAIN_LATIN.test(word)) return word;
  if (word.endsWith("ies") && !word.endsWith("eies") && !word.endsWith("aies")) {
    return `${word.slice(0, -3)}y`;
  }
  if (word.endsWith("es") && !word.endsWith("aes") && !word.endsWith("ees") && !word.endsWith("oes")) {
    return word.slice(0, -1);
  }
  if (word.endsWith("s") && !word.endsWith("us") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

const VOWEL = /[aeiouy]/;
// Doubled final consonants that an -ing or -ed form adds (`shipping` → `ship`); `ll`, `ss` and `zz` are
// usually part of the word (`billed`, `passed`).
const DOUBLED = /(?:bb|dd|ff|gg|kk|mm|nn|pp|rr|tt)$/;

/**
 * The stem a sentence's word and a question's word are ranked by: `singularStem`'s singular, then `-ing`,
 * `-ed` or `-ly` and a final `e` dropped (`refunds`, `refunded`, `refunding` → `refund`; `shipping`,
 * `ships` → `ship`; `issued`, `issues` → `issu`; `carried` → `carry`). Stems need not be words, only
 * the same for the forms of one word; it stays light (no `-ation`, `-ment`) so that different words rarely
 * meet. O(length of the word); other scripts and words of 3 letters or fewer pass unchanged.
 */
export function rankingStem(word: string): string {
  if (word.length <= 3 || !PLAIN_LATIN.test(word)) return word;
  let stem = singularStem(word);
  if (stem.endsWith("ied") && stem.length > 4) return `${stem.slice(0, -3)}y`;
  const inflection = stem.endsWith("ing") ? 3 : stem.endsWith("ed") ? 2 : 0;
  if (inflection > 0 && stem.length - inflection >= 3 && VOWEL.test(stem.slice(0, -inflection))) {
    stem = stem.slice(0, -inflection);
    if (DOUBLED.test(stem)) stem = stem.slice(0, -1);
  } else if (stem.endsWith("ly") && stem.length >= 6) {
    stem = stem.slice(0, -2);
  }
  return stem.endsWith("e") && stem.length > 3 ? stem.slice(0, -1) : stem;
}

// Function words and the words people wrap a question in ("what", "please tell me", "according to").
// They would match almost every sentence and say nothing about which one answers.
const ENGLISH = `a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing done down during each either else ever every few for
from further get gets got had has have having he her here hers herself him himself his how i if in into is it
its itself just let many me might more most much must my myself neither no nor not now of off on once only or
other our ours ourselves out over own per please same several shall she should so some such than that the their
theirs them themselves then there these they this those through thus to too under until up upon us very was
we were what whatever when whenever where whereas whether which while who whoever whom whose why will with
within would yes yet you your yours yourself yourselves
tell say says said give show list explain describe summarize summarise summary according mention mentioned
know need want like help find look hi hello thanks thank kindly answer question`;

// A few German function words, for questions such as "Wie hoch war der Umsatz?". Words that are also
// English content words (`war`, `die`) are left out.
const GERMAN = `der das den dem des ein eine einer eines einem einen und oder ist sind waren wie wer wo wann
warum welche welcher welches welchen im am auf fur mit von zu zum zur bei nach uber hat haben wird wurde
wurden nicht auch es sie er wir ich ihr sein seine ihre`;

// Chinese and Japanese question and function words; Japanese particles are caught by the rule below.
const CJK =
  "的 了 是 在 和 吗 呢 什么 多少 哪 哪个 怎么 为什么 何 いくら どれ どの どこ いつ なぜ 誰 ですか でしょうか ください 教えて";

// Folded like the words they are compared with (`です` decomposes to `て` and a combining mark).
const STOP_WORDS: ReadonlySet<string> = new Set(
  [...ENGLISH.split(/\s+/), ...GERMAN.split(/\s+/), ...CJK.split(" ")].map(foldWord),
);

// Japanese writes particles and endings (は, が, の, です, した) in hiragana; content words rarely are
// one or two hiragana long.
const SHORT_HIRAGANA = /^(?:[\p{sc=Hiragana}ー]\p{M}*){1,2}$/u;

/** True for a folded word that carries no topic: English/German function and question words, particles. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || SHORT_HIRAGANA.test(word);
}

// One token per character in scripts written without spaces, one per run of letters and digits in
// others, one per punctuation mark or symbol: close to what subword tokenizers report, and stable.
const TOKEN =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}])[\p{L}\p{M}\p{N}])+|[^\s\p{L}\p{M}\p{N}]/gu;

/** Counts the tokens of `text` deterministically: words, CJK/Thai characters, punctuation marks. */
export function countTokens(text: string): number {
  let count = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(text) !== null) count++;
  return count;
}
