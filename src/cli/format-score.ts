/** A score in [0, 1] for people: at most three decimals, no trailing zeros (`1`, `0.667`, `0.05`). */
export function formatScore(value: number): string {
  return value.toFixed(3).replace(/\.?0+$/, "");
}
