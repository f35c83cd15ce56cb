/** Seeded random choices, so every benchmark run sends the same bytes. */
export interface SeededGenerator {
  /** A whole number in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32, a small well-known PRNG, behind `int` and `pick`. */
export function seededGenerator(seed: number): SeededGenerator {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  return { int, pick: (items) => items[int(0, items.length - 1)] as (typeof items)[number] };
}
