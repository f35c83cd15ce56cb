// Lists of one entry per claim character, word or number: an attack's claim has millions of them.

// Up to this length a list is grown by appending, which keeps it packed for the code reading it; a longer
// one is made at its size, so it is not copied again and again as it grows.
const GROWN_UP_TO = 256;

/** An empty list to be filled by index, in order, up to `length` entries: made at its size when long. */
export function listOfLength<T>(length: number): T[] {
  return length > GROWN_UP_TO ? new Array<T>(length) : [];
}
