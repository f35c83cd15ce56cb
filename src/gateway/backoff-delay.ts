/**
 * Milliseconds to wait before retry number `attempt` (0 for the first retry): `baseMs × 2^attempt`, half of
 * it fixed and half random ("equal jitter"), so retries from many callers spread out but never come at once.
 * `random` returns a number in [0, 1), like `Math.random`.
 */
export function backoffDelayMs(attempt: number, baseMs: number, random: () => number): number {
  const ceiling = baseMs * 2 ** attempt;
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
