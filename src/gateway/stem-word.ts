const PLAIN_LATIN = /^[a-z]+$/;

/**
 * Reduces an English plural to its singular with Harman's S-stemmer (`companies` → `company`, `sales` →
 * `sale`, `quarters` → `quarter`; `business`, `status` stay). Conservative on purpose: it only has to
 * make a question's word and a source's word meet. Expects a folded word; other scripts pass unchanged.
 */
export function stemWord(word: string): string {
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
