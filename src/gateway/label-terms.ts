import { toTerm } from "./extract-terms.js";
import { splitWords } from "./split-words.js";

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
