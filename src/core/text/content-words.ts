import { foldWord } from "./words.js";

// The content words of a text, shared by the local model's ranking and the answer check's support search:
// light stems (the same for the forms of one word) and the function words that say nothing about a topic.

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
