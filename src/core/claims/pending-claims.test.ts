import { describe, expect, it } from "vitest";
import { prepareSources } from "../prepared-source.js";
import { quoteSearchSteps } from "../quotes/find-quote.js";
import type { CandidateClaim, MatchMode } from "../types.js";
import { createPendingClaims } from "./pending-claims.js";
import { judgeClaims } from "./verify-claims.js";

// Claims that arrive one at a time (a streamed reply), judged in the batches `createPendingClaims` allows,
// cost the quote searches of the whole reply judged at once: O(n + Σm) steps, counted, not timed. Judged
// one at a time as they arrive (as streaming did), distinct near misses cost O(claims × n).

const SCALES = [1, 4, 16, 64];
/** Steps per character of source and quotes (the bound of linear-matching.test.ts). */
const C = 8;

const families = [
  {
    name: "near misses `'a b '×k + 'b a'` against `'a b '×n`",
    text: (scale: number) => "a b ".repeat(250 * scale),
    quote: (index: number) => `${"a b ".repeat(50 + index)}b a`,
  },
  {
    name: "`'a '×k + 'b'` found only at the end of `'a '×n + 'b'`",
    text: (scale: number) => `${"a ".repeat(500 * scale)}b`,
    quote: (index: number) => `${"a ".repeat(100 + index)}b`,
  },
];

/** Judges `claims` as they arrive one by one: in the batches `createPendingClaims` allows, or each alone. */
function judgeArriving(text: string, claims: CandidateClaim[], mode: MatchMode, batched: boolean) {
  const prepared = prepareSources([{ id: "s", text }]);
  const verdicts: ReturnType<typeof judgeClaims> = [];
  let held: CandidateClaim[] = [];
  let pending = createPendingClaims(prepared, { mode });
  let batches = 0;
  for (const claim of claims) {
    held.push(claim);
    pending.add(claim);
    if (!batched || pending.ready()) {
      verdicts.push(...judgeClaims(prepared, held, { mode }));
      batches += 1;
      held = [];
      pending = createPendingClaims(prepared, { mode });
    }
  }
  verdicts.push(...judgeClaims(prepared, held, { mode }));
  return { verdicts, batches, steps: quoteSearchSteps(prepared.get("s") as never) };
}

describe("createPendingClaims", () => {
  it.each(
    (["strict", "lenient"] as const).flatMap((mode) => families.map((family) => ({ ...family, mode }))),
  )(
    "$mode, $name, arriving one at a time: steps ≤ 8·(n + Σm) as the input doubles from 1× to 64×",
    (family) => {
      for (const scale of SCALES) {
        const text = family.text(scale);
        const claims = Array.from({ length: 20 * scale }, (_, index) => ({
          claim: "c",
          quote: family.quote(index),
          source: "s",
        }));
        const size = text.length + claims.reduce((sum, claim) => sum + claim.quote.length, 0);
        const batched = judgeArriving(text, claims, family.mode, true);
        expect(batched.verdicts).toEqual(judgeClaims([{ id: "s", text }], claims, { mode: family.mode }));
        expect(batched.steps).toBeLessThanOrEqual(C * size);
        // Early claims are judged as they arrive, while searching one at a time is cheap.
        expect(batched.batches).toBeGreaterThan(1);
        if (scale === 16) {
          // Each judged alone as it arrives, the same claims cost several times more: the defect this bounds.
          expect(judgeArriving(text, claims, family.mode, false).steps).toBeGreaterThan(3 * batched.steps);
        }
      }
    },
    60_000,
  );

  it("never holds a claim whose quote was searched before, nor one of a source searched one at a time", () => {
    const prepared = prepareSources([{ id: "s", text: "a b ".repeat(1_000) }]);
    const pending = createPendingClaims(prepared, {});
    pending.add({ quote: "a b a", source: "s" });
    pending.add({ quote: "x", source: "missing" });
    expect(pending.ready()).toBe(true);
    judgeClaims(prepared, [{ quote: "a b a", source: "s" }]);
    const after = createPendingClaims(prepared, {});
    after.add({ quote: "a b a", source: "s" });
    expect(after.ready()).toBe(true);
  });
});
