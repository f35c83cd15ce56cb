/** `1 model call`, `1,204 tokens`: a count with its noun, plural when it is not 1. */
export function formatCount(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}
