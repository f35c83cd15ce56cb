import { forEachWord, isStopWord, rankingStem, singularStem, splitWords } from "../../core/index.js";

// The stems and stop words live in the core (`core/text/content-words.ts`): answer checks share them.
export { isStopWord, rankingStem, singularStem };

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
