import { grownTo } from "../lists.js";

/**
 * Where a claim names table labels, `[start, end)` in the folded claim, and the body rows and header
 * columns of one table they name: the shape of the tables' label occurrences, declared here so that
 * wording does not depend on tables. Lists of them are `Mentions`; this is one read out of such a list.
 */
export interface Mention {
  start: number;
  end: number;
  table: number;
  rows: readonly number[];
  columns: readonly number[];
}

/** What a mention names: a table, and rows and columns of it. Shared by every mention of one label. */
export interface MentionTarget {
  table: number;
  rows: readonly number[];
  columns: readonly number[];
}

const NO_POSITIONS = new Int32Array(0);

/**
 * A claim's mentions in claim order (per table), held column by column: where each starts and ends, and
 * the index of what it names in `targets`, a list shared by every list made from the same claim's
 * mentions. A claim naming a label a million times makes three typed arrays rather than a million objects
 * for the collector to copy. Read by index (`start(i)`, `rows(i)`, …); `slice` shares the storage, and
 * adding to a slice copies it first, so a list is never changed through another.
 */
export class Mentions {
  /** What the mentions name, by the index each mention holds. */
  readonly targets: MentionTarget[];
  #starts: Int32Array;
  #ends: Int32Array;
  #targetOf: Int32Array;
  #length: number;

  constructor(targets: MentionTarget[] = [], capacity = 0) {
    this.targets = targets;
    this.#starts = capacity > 0 ? new Int32Array(capacity) : NO_POSITIONS;
    this.#ends = capacity > 0 ? new Int32Array(capacity) : NO_POSITIONS;
    this.#targetOf = capacity > 0 ? new Int32Array(capacity) : NO_POSITIONS;
    this.#length = 0;
  }

  /** A list of plain mentions, each naming a target of its own (tests and small callers). */
  static of(list: readonly Mention[]): Mentions {
    const mentions = new Mentions([], list.length);
    for (const { start, end, table, rows, columns } of list)
      mentions.addTarget(start, end, { table, rows, columns });
    return mentions;
  }

  get length(): number {
    return this.#length;
  }

  start(index: number): number {
    return this.#starts[index] as number;
  }

  end(index: number): number {
    return this.#ends[index] as number;
  }

  /** The index in `targets` of what mention `index` names. */
  targetOf(index: number): number {
    return this.#targetOf[index] as number;
  }

  table(index: number): number {
    return (this.targets[this.#targetOf[index] as number] as MentionTarget).table;
  }

  rows(index: number): readonly number[] {
    return (this.targets[this.#targetOf[index] as number] as MentionTarget).rows;
  }

  columns(index: number): readonly number[] {
    return (this.targets[this.#targetOf[index] as number] as MentionTarget).columns;
  }

  /** Mention `index` as a plain object. */
  at(index: number): Mention {
    const { table, rows, columns } = this.targets[this.#targetOf[index] as number] as MentionTarget;
    return { start: this.start(index), end: this.end(index), table, rows, columns };
  }

  /** Every mention as a plain object, in order. */
  toArray(): Mention[] {
    const list: Mention[] = [];
    for (let index = 0; index < this.#length; index += 1) list.push(this.at(index));
    return list;
  }

  /** Adds a mention of `targets[target]`. */
  add(start: number, end: number, target: number): void {
    if (this.#length === this.#starts.length) this.#grow(this.#length + 1);
    const at = this.#length;
    this.#starts[at] = start;
    this.#ends[at] = end;
    this.#targetOf[at] = target;
    this.#length = at + 1;
  }

  /** Adds `target` to `targets` and a mention of it; returns the target's index. */
  addTarget(start: number, end: number, target: MentionTarget): number {
    const index = this.targets.length;
    this.targets.push(target);
    this.add(start, end, index);
    return index;
  }

  /** Makes mention `index` span `[start, end)` and name `targets[target]`. */
  set(index: number, start: number, end: number, target: number): void {
    this.#starts[index] = start;
    this.#ends[index] = end;
    this.#targetOf[index] = target;
  }

  /** Mentions `[from, to)`, sharing this list's storage and targets: nothing is copied. */
  slice(from = 0, to = this.#length): Mentions {
    const part = new Mentions(this.targets);
    part.#starts = this.#starts.subarray(from, to);
    part.#ends = this.#ends.subarray(from, to);
    part.#targetOf = this.#targetOf.subarray(from, to);
    part.#length = to - from;
    return part;
  }

  /** A list of its own holding mentions `[0, count)`, with room for as many as this one has. */
  copyFirst(count: number): Mentions {
    const copy = new Mentions(this.targets, Math.max(this.#length, 1));
    copy.#starts.set(this.#starts.subarray(0, count));
    copy.#ends.set(this.#ends.subarray(0, count));
    copy.#targetOf.set(this.#targetOf.subarray(0, count));
    copy.#length = count;
    return copy;
  }

  /** Appends mentions `[from, to)` of `other`, which shares this list's targets. */
  addRange(other: Mentions, from: number, to: number): void {
    if (this.#length + (to - from) > this.#starts.length) this.#grow(this.#length + (to - from));
    this.#starts.set(other.#starts.subarray(from, to), this.#length);
    this.#ends.set(other.#ends.subarray(from, to), this.#length);
    this.#targetOf.set(other.#targetOf.subarray(from, to), this.#length);
    this.#length += to - from;
  }

  // Doubles the storage, to at least `needed` (a slice's storage is exactly its length: its first
  // addition copies it away).
  #grow(needed: number): void {
    this.#starts = grownTo(this.#starts, this.#length, needed);
    this.#ends = grownTo(this.#ends, this.#length, needed);
    this.#targetOf = grownTo(this.#targetOf, this.#length, needed);
  }
}
