const words: Record<string, string> = {
  quote_not_found: "quote not found in the source",
  unknown_source: "cites a source that was not supplied",
  number_not_found: "a number is not in the cited source/cell",
  not_found: "not found in any source",
};

/** The reason code of a dropped claim or field, said in words; an unknown code is shown as it is. */
export function reasonInWords(reason: string): string {
  return Object.hasOwn(words, reason) ? (words[reason] as string) : reason;
}
