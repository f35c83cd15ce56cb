import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TermSet } from "./support.js";

// The ids whose slot in a table of `bits` bits is the first: a sentence of them crowds one run of the table.
function collidingIds(count: number, bits: number): number[] {
  const ids: number[] = [];
  for (let id = 0; ids.length < count; id++)
    if (Math.imul(id + 1, 0x9e3779b1) >>> (32 - bits) === 0) ids.push(id);
  return ids;
}

describe("TermSet", () => {
  it("holds exactly a sentence's ids, repeats included (fixed seed)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(5_000), { maxLength: 200 }),
        fc.array(fc.nat(5_000), { maxLength: 50 }),
        (ids, asked) => {
          const set = new TermSet([7, ...ids, 9], 1, ids.length + 1);
          const expected = new Set(ids);
          for (const id of [...ids, ...asked, 7, 9]) expect(set.has(id)).toBe(expected.has(id));
        },
      ),
      { seed: 34, numRuns: 500 },
    );
  });

  it("holds ids chosen to share one slot, held sorted, and no other id", () => {
    // 256 ids make a table of 512 slots (9 bits), every one of them placed from its first slot.
    const ids = collidingIds(256, 9);
    const set = new TermSet(ids, 0, ids.length);
    const held = new Set(ids);
    for (const id of ids) expect(set.has(id)).toBe(true);
    for (let id = 0; id <= (ids.at(-1) as number); id++) expect(set.has(id)).toBe(held.has(id));
  });

  it("finds an id past a run of other ids placed from its own slot", () => {
    // 20 colliding ids (under the probe cap) stay in the table: each after the ones before it.
    const ids = collidingIds(20, 6);
    const set = new TermSet(ids, 0, ids.length);
    for (const id of ids) expect(set.has(id)).toBe(true);
    expect(set.has((ids.at(-1) as number) + 1)).toBe(false);
  });
});
