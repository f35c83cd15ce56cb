import type { PreparedSource } from "../prepared-source.js";
import { searchesAtOnce, unsearchedQuoteChars } from "../quotes/index.js";
import type { CandidateClaim, ClaimCheckOptions } from "../types.js";

/** Claims that arrive a few at a time (a streamed reply), held until judging them keeps the bound. */
export interface PendingClaims {
  /** Holds one more claim. O(its quote's length). */
  add(claim: CandidateClaim): void;
  /**
   * Whether judging every claim held now keeps the request's quote searches within O(n + Σm), as judging
   * them all at once would: true unless some source held claims point to searches its quotes at once
   * (`searchesAtOnce`) and they do not yet total its length in characters not searched. O(1).
   */
  ready(): boolean;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * Tracks claims not judged yet, for a caller that judges them in batches as they arrive. Without it, a
 * streamed reply of distinct near-miss quotes, each judged alone as it closed, cost O(n) a quote: 2,000 of
 * them against a 100,000-character source took seconds where the same reply judged whole took 94 ms. A
 * source searched one quote at a time while that is cheap never waits; after that, each batch of its quotes
 * is at least its length, so every pass at once (O(n + the batch's Σm)) is paid for by its quotes. Whether a
 * source searches at once is read when its first held claim is added: a caller makes a new `PendingClaims`
 * after each batch it judges.
 */
export function createPendingClaims(
  prepared: ReadonlyMap<string, PreparedSource>,
  options: ClaimCheckOptions,
): PendingClaims {
  const mode = options.mode ?? "strict";
  /** Characters not searched yet of the held quotes of each source that searches at once. */
  const waiting = new Map<PreparedSource, number>();
  let short = 0;
  return {
    add(claim) {
      const source = prepared.get(text(claim.source));
      if (source === undefined) return;
      let chars = waiting.get(source);
      if (chars !== undefined && chars >= source.text.length) return;
      const added = unsearchedQuoteChars(source, text(claim.quote), mode);
      // A quote searched before costs nothing, and a source still searched one quote at a time never waits.
      if (added === 0) return;
      if (chars === undefined) {
        if (!searchesAtOnce(source, mode)) return;
        chars = 0;
        short += 1;
      }
      chars += added;
      waiting.set(source, chars);
      if (chars >= source.text.length) short -= 1;
    },
    ready: () => short === 0,
  };
}
