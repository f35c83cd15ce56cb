// Lists of one entry per claim character, word or number: an attack's claim has millions of them.

// Up to this length a list is grown by appending, which keeps it packed for the code reading it; a longer
// one is made at its size, so it is not copied again and again as it grows.
const GROWN_UP_TO = 256;

/** An empty list to be filled by index, in order, up to `length` entries: made at its size when long. */
export function listOfLength<T>(length: number): T[] {
  return length > GROWN_UP_TO ? new Array<T>(length) : [];
}

/**
 * The first `length` entries of `array` in a typed array of room for at least `needed` (and at least twice
 * as many as `array` has): how lists held in typed arrays grow, each entry copied O(1) times on average.
 */
export function grownTo(array: Int32Array, length: number, needed: number): Int32Array {
  const larger = new Int32Array(Math.max(8, needed, array.length * 2));
  larger.set(array.subarray(0, length));
  return larger;
}

/** What `map` holds for `key`, made by `make(key)` and kept there on the first ask. */
export function getOrMake<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: (key: K) => V,
): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make(key);
    map.set(key, value);
  }
  return value;
}
