import { forEachWord } from "./split-words.js";
import { stemWord } from "./stem-word.js";
import { isStopWord } from "./stop-words.js";

/** The matching term of a folded word (possessive dropped, plural stemmed), or null for a stop word. */
export function toTerm(word: string): string | null {
  const bare = word.endsWith("'s") ? word.slice(0, -2) : word;
  if (bare === "" || isStopWord(bare)) return null;
  return stemWord(bare);
}

/** The content terms of `text`, in order and with repeats: folded, stemmed, without stop words. */
export function extractTerms(text: string): string[] {
  const terms: string[] = [];
  forEachWord(text, (word) => {
    const term = toTerm(word);
    if (term !== null) terms.push(term);
  });
  return terms;
}
