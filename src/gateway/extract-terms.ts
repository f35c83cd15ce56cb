import { splitWords } from "./split-words.js";
import { stemWord } from "./stem-word.js";
import { isStopWord } from "./stop-words.js";

const POSSESSIVE = /'s$/;

/** The matching term of a folded word (possessive dropped, plural stemmed), or null for a stop word. */
export function toTerm(word: string): string | null {
  const bare = word.replace(POSSESSIVE, "");
  if (bare === "" || isStopWord(bare)) return null;
  return stemWord(bare);
}

/** The content terms of `text`, in order and with repeats: folded, stemmed, without stop words. */
export function extractTerms(text: string): string[] {
  const terms: string[] = [];
  for (const { word } of splitWords(text)) {
    const term = toTerm(word);
    if (term !== null) terms.push(term);
  }
  return terms;
}
