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
