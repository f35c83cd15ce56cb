/** Returns the index of the first source whose id repeats an earlier one, or -1. */
export function findDuplicateSourceId(sources: readonly { id: string }[]): number {
  const seen = new Set<string>();
  for (const [index, source] of sources.entries()) {
    if (seen.has(source.id)) return index;
    seen.add(source.id);
  }
  return -1;
}
