// The verdict ledger (issue 38): every claim a row-check test has pinned, with its table, quote and
// verdict, in one table-driven file (verdict-ledger.json). `pinned` is the verdict the test asserted and
// where (the pre-round src/core/tables/row-check.test.ts at 157188d, or the binding tests at 90eb24d);
// `keep` is today's. A change that flips a verdict fails here until the ledger's `keep` is changed and
// `why` names the rule and the reason; `why.open` marks a wrong verdict known and not yet restored.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Range } from "../types.js";
import { checkRowNumbers } from "./row-check.js";

interface LedgerEntry {
  claim: string;
  table: string;
  quote: string;
  /** Where the quote starts in the table's text. */
  at: number;
  keep: boolean;
  pinned: { keep: boolean; commit: string; test: string };
  why?: { rule: string; reason: string; open?: boolean };
}

const ledger = JSON.parse(readFileSync(new URL("./verdict-ledger.json", import.meta.url), "utf8")) as {
  tables: Record<string, string>;
  entries: LedgerEntry[];
};

const textOf = (entry: LedgerEntry): string => {
  const text = ledger.tables[entry.table];
  if (text === undefined) throw new Error(`${entry.claim}: no table ${entry.table}`);
  return text;
};

describe("the verdict ledger", () => {
  it("holds each claim, table and quote once, each quote where it says", () => {
    const keys = ledger.entries.map((entry) => JSON.stringify([entry.claim, entry.table, entry.at]));
    expect(new Set(keys).size).toBe(keys.length);
    for (const entry of ledger.entries) {
      const text = textOf(entry);
      expect([entry.claim, text.slice(entry.at, entry.at + entry.quote.length)]).toEqual([
        entry.claim,
        entry.quote,
      ]);
    }
  });

  it("says why for every verdict that differs from the one a test pinned, and only for those", () => {
    for (const entry of ledger.entries) {
      const changed = entry.keep !== entry.pinned.keep;
      expect([
        entry.claim,
        changed,
        (entry.why?.rule ?? "") !== "" && (entry.why?.reason ?? "") !== "",
      ]).toEqual([entry.claim, changed, changed]);
    }
  });

  it.each(ledger.entries.map((entry) => [entry.claim, entry] as const))("%s", (_, entry) => {
    const range: Range = [entry.at, entry.at + entry.quote.length];
    // A flipped verdict: change `keep` in verdict-ledger.json and say why (the rule and the reason).
    expect(checkRowNumbers(entry.claim, { id: "s", text: textOf(entry) }, range)).toBe(entry.keep);
  });
});
