/** The middle value (the upper middle for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Nearest-rank percentile: the smallest value with at least `p`% of the values at or below it. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** `1,234` */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** Milliseconds with 2 decimals, e.g. `0.42 ms`. */
export function formatMs(value: number): string {
  return `${value.toFixed(2)} ms`;
}
