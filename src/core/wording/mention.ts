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

// Each mention is three integers in a row: its start, its end, and the index of its target.
const FIELDS = 3;

// The storage of a list made empty: shared, since its first addition replaces it.
const NO_MENTIONS = new Int32Array(0);

/**
 * A claim's mentions in claim order (per table), held in one typed array, three integers each: where it
 * starts and ends, and the index of what it names in `targets`, a list shared by every list made from the
 * same claim's mentions. A claim naming a label a million times makes one typed array rather than a
 * million objects for the collector to copy, and a typical claim one small array. Read by index
 * (`start(i)`, `rows(i)`, …). `slice` shares the storage; a slice that is added to or changed copies it
 * first, so a list is never changed through another.
 */
export class Mentions {
  /** What the mentions name, by the index each mention holds. */
  readonly targets: MentionTarget[];
  #data: Int32Array;
  // Where mention 0 starts in `#data`, and whether `#data` is another list's (this list being a slice).
  #base: number;
  #shared: boolean;
  #length: number;

  constructor(targets: MentionTarget[] = [], capacity = 0) {
    this.targets = targets;
    this.#data = capacity > 0 ? new Int32Array(FIELDS * capacity) : NO_MENTIONS;
    this.#base = 0;
    this.#shared = false;
    this.#length = 0;
  }

  /**
   * The first `length` mentions of `data`, three integers each (start, end, index in `targets`), as a
   * list that owns `data` from now on.
   */
  static over(targets: MentionTarget[], data: Int32Array, length: number): Mentions {
    const mentions = new Mentions(targets);
    mentions.#data = data;
    mentions.#length = length;
    return mentions;
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
    return this.#data[this.#base + FIELDS * index] as number;
  }

  end(index: number): number {
    return this.#data[this.#base + FIELDS * index + 1] as number;
  }

  /** The index in `targets` of what mention `index` names. */
  targetOf(index: number): number {
    return this.#data[this.#base + FIELDS * index + 2] as number;
  }

  table(index: number): number {
    return (this.targets[this.targetOf(index)] as MentionTarget).table;
  }

  rows(index: number): readonly number[] {
    return (this.targets[this.targetOf(index)] as MentionTarget).rows;
  }

  columns(index: number): readonly number[] {
    return (this.targets[this.targetOf(index)] as MentionTarget).columns;
  }

  /** Mention `index` as a plain object. */
  at(index: number): Mention {
    const { table, rows, columns } = this.targets[this.targetOf(index)] as MentionTarget;
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
    this.#own(this.#length + 1);
    const at = FIELDS * this.#length;
    this.#data[at] = start;
    this.#data[at + 1] = end;
    this.#data[at + 2] = target;
    this.#length += 1;
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
    this.#own(this.#length);
    const at = FIELDS * index;
    this.#data[at] = start;
    this.#data[at + 1] = end;
    this.#data[at + 2] = target;
  }

  /** Keeps only the mentions `items` (indices, each at most once), in that order. */
  keepOnly(items: ArrayLike<number>): void {
    this.#own(this.#length);
    const kept: number[] = [];
    for (let at = 0; at < items.length; at += 1) {
      const item = items[at] as number;
      kept.push(this.start(item), this.end(item), this.targetOf(item));
    }
    for (let at = 0; at < kept.length; at += 1) this.#data[at] = kept[at] as number;
    this.#length = items.length;
  }

  /** Mentions `[from, to)`, sharing this list's storage and targets: nothing is copied. */
  slice(from = 0, to = this.#length): Mentions {
    const part = new Mentions(this.targets);
    part.#data = this.#data;
    part.#base = this.#base + FIELDS * from;
    part.#shared = true;
    part.#length = to - from;
    return part;
  }

  /** A list of its own holding mentions `[0, count)`, with room for as many as this one has. */
  copyFirst(count: number): Mentions {
    const copy = new Mentions(this.targets, Math.max(this.#length, 1));
    // Copied in a loop: a view of the part to copy would be one more object per copy.
    for (let at = 0; at < FIELDS * count; at += 1) copy.#data[at] = this.#data[this.#base + at] as number;
    copy.#length = count;
    return copy;
  }

  /** Appends mentions `[from, to)` of `other`, which shares this list's targets. */
  addRange(other: Mentions, from: number, to: number): void {
    this.#own(this.#length + to - from);
    const source = other.#data.subarray(other.#base + FIELDS * from, other.#base + FIELDS * to);
    this.#data.set(source, FIELDS * this.#length);
    this.#length += to - from;
  }

  // Makes `#data` this list's own, from index 0, with room for `needed` mentions: a slice copies its
  // mentions away, a full list doubles.
  #own(needed: number): void {
    if (!this.#shared && FIELDS * needed <= this.#data.length) return;
    const used = this.#data.subarray(this.#base, this.#base + FIELDS * this.#length);
    this.#data = grownTo(used, used.length, FIELDS * needed);
    this.#base = 0;
    this.#shared = false;
  }
}
