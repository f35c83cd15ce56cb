import { describe, expect, it } from "vitest";
import { type Mention, Mentions } from "./mention.js";

const ROW: Mention = { start: 0, end: 1, table: 0, rows: [0], columns: [] };
const COLUMN: Mention = { start: 2, end: 5, table: 0, rows: [], columns: [1, 3] };
const OTHER: Mention = { start: 6, end: 8, table: 1, rows: [], columns: [2] };

describe("Mentions", () => {
  it("reads back the plain mentions it was made of", () => {
    const mentions = Mentions.of([ROW, COLUMN, OTHER]);
    expect(mentions.length).toBe(3);
    expect(mentions.toArray()).toEqual([ROW, COLUMN, OTHER]);
    expect([mentions.start(1), mentions.end(1), mentions.table(2)]).toEqual([2, 5, 1]);
    expect(mentions.columns(1)).toBe(COLUMN.columns);
  });

  it("grows past any starting size", () => {
    const mentions = new Mentions([{ table: 0, rows: [], columns: [0] }], 1);
    for (let index = 0; index < 1_000; index += 1) mentions.add(2 * index, 2 * index + 1, 0);
    expect(mentions.length).toBe(1_000);
    expect([mentions.start(999), mentions.end(999), mentions.targetOf(999)]).toEqual([1998, 1999, 0]);
  });

  it("a slice shares the list's mentions, and adding to or changing it leaves the list as it was", () => {
    const mentions = Mentions.of([ROW, COLUMN, OTHER]);
    const part = mentions.slice(1, 3);
    expect(part.toArray()).toEqual([COLUMN, OTHER]);
    part.set(0, 3, 5, part.targetOf(0));
    part.add(9, 10, mentions.targetOf(0));
    expect(part.toArray()).toEqual([{ ...COLUMN, start: 3 }, OTHER, { ...ROW, start: 9, end: 10 }]);
    expect(mentions.toArray()).toEqual([ROW, COLUMN, OTHER]);
  });

  it("copies its first mentions, appends another's range and keeps only chosen mentions in a given order", () => {
    const mentions = Mentions.of([ROW, COLUMN, OTHER]);
    const copy = mentions.copyFirst(1);
    copy.addRange(mentions, 2, 3);
    expect(copy.toArray()).toEqual([ROW, OTHER]);
    mentions.keepOnly([2, 0]);
    expect(mentions.toArray()).toEqual([OTHER, ROW]);
    expect(copy.toArray()).toEqual([ROW, OTHER]);
  });

  it("a target added once is named by index from every list sharing the targets", () => {
    const mentions = new Mentions();
    const index = mentions.addTarget(0, 3, { table: 2, rows: [4], columns: [] });
    const other = new Mentions(mentions.targets);
    other.add(5, 8, index);
    expect(other.at(0)).toEqual({ start: 5, end: 8, table: 2, rows: [4], columns: [] });
  });
});
