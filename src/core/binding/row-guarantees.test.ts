// The row guarantees (G1–G4 of the binding registry) as properties over generated wordings: claims that
// name one row label and one column label of a real table and carry one number, or two each for its own
// column, in 44 verb phrases and 10 word orders (test/support/row-wordings.ts). A fixed-seed sample over
// the seven tables of test/fixtures/row-wordings-tables.json (sources and licences in the .md beside it);
// `npm run bench -- row-wordings` runs the full set over the shared corpus.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cellWordings,
  holds,
  judgeWording,
  readWordingTable,
  VERB_PHRASES,
  WORD_ORDERS,
  type WordingCase,
  type WordingKind,
  type WordingTable,
} from "../../../test/support/row-wordings.js";
import { judgeClaims } from "../claims/verify-claims.js";

const fixture = JSON.parse(
  readFileSync(new URL("../../../test/fixtures/row-wordings-tables.json", import.meta.url), "utf8"),
) as { text: string }[];
const tables = fixture.map((each) => readWordingTable(each.text)).filter((table) => table !== undefined);

// One cell of a table, in one word order and verb phrase: its claims of each kind.
const wordings = fc
  .record({
    table: fc.constantFrom(...tables.filter((table) => table.cells.length > 0)),
    cell: fc.nat(),
    order: fc.constantFrom(...WORD_ORDERS),
    verb: fc.constantFrom(...VERB_PHRASES),
  })
  .map(({ table, cell, order, verb }) =>
    cellWordings(table, table.cells[cell % table.cells.length] as WordingTable["cells"][number], order, verb),
  );

const failing = (cases: readonly WordingCase[], kinds: readonly WordingKind[]) =>
  cases
    .filter((each) => kinds.includes(each.kind) && !holds(each))
    .map((each) => ({ claim: each.claim, row: each.text.slice(...each.quote), ...judgeWording(each) }));

const PARAMETERS = { seed: 33, numRuns: 400 } as const;

describe("the row guarantees over generated wordings", () => {
  it("reads every fixture table and claims cells of each", () => {
    expect(tables.map((table) => table.cells.length > 0)).toEqual(fixture.map(() => true));
  });

  it.each([
    { id: "G1", name: "the number of the named cell is kept", kind: "named cell kept" },
    {
      id: "G2",
      name: "a number from another column of the named row is dropped with number_not_found",
      kind: "other column dropped",
    },
    {
      id: "G3",
      name: "a number from another row of the named column is dropped with number_not_found",
      kind: "other row dropped",
    },
  ] as const)("$id: $name, with any verb phrase and word order", ({ kind }) => {
    fc.assert(
      fc.property(wordings, (cases) => {
        expect(failing(cases, [kind])).toEqual([]);
      }),
      PARAMETERS,
    );
  });

  it("G4: a claim of two numbers, each bound to its own named cell, is kept only when both are right", () => {
    fc.assert(
      fc.property(
        wordings.filter((cases) => cases.some((each) => each.kind === "two cells kept")),
        (cases) => {
          expect(
            failing(cases, [
              "two cells kept",
              "two cells swapped, dropped",
              "two cells, one from another row, dropped",
            ]),
          ).toEqual([]);
        },
      ),
      PARAMETERS,
    );
  });

  it("gives the same verdicts with one prepared source reused across claims as with a fresh one per claim", () => {
    // judgeWording reuses one prepared source per table, its per-source caches filled by earlier claims in
    // any order; a fresh source per claim starts empty.
    fc.assert(
      fc.property(fc.array(wordings, { minLength: 2, maxLength: 6 }), (groups) => {
        for (const each of groups.flat()) {
          const [fresh] = judgeClaims(
            [{ id: "t", text: each.text }],
            [{ claim: each.claim, quote: each.text.slice(...each.quote), source: "t" }],
            { checkNumbers: "row" },
          );
          const reused = judgeWording(each);
          expect([each.claim, reused.kept]).toEqual([each.claim, fresh?.grounded]);
        }
      }),
      { seed: 38, numRuns: 60 },
    );
  });
});
