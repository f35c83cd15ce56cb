// The row guarantees (G1–G4) give the same verdicts through every door: the core, `POST /v1/verified/check`,
// `POST /v1/verified` with a scripted gateway whose model answers the claims, and `verified check --jsonl`.
// A fixed sample of the generated wordings over the fixture tables (test/support/row-wordings.ts,
// test/fixtures/row-wordings-tables.json).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { claimsContent, startWithGateway } from "./server/harness.js";
import {
  cellWordings,
  readWordingTable,
  VERB_PHRASES,
  WORD_ORDERS,
  type WordingCase,
} from "./support/row-wordings.js";
import { runBinary } from "./support/run-binary.js";

const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/row-wordings-tables.json", import.meta.url), "utf8"),
) as { text: string }[];

// Per table, its first two cells in every word order, the verb phrase in turn: each claim once.
const perTable: WordingCase[][] = fixture.map(({ text }, tableAt) => {
  const table = readWordingTable(text);
  if (table === undefined) throw new Error("no table");
  const cases = table.cells
    .slice(0, 2)
    .flatMap((cell, cellAt) =>
      WORD_ORDERS.flatMap((order, orderAt) =>
        cellWordings(
          table,
          cell,
          order,
          VERB_PHRASES[
            (tableAt * 7 + cellAt * 3 + orderAt) % VERB_PHRASES.length
          ] as (typeof VERB_PHRASES)[number],
        ),
      ),
    );
  return [...new Map(cases.map((each) => [each.claim, each])).values()];
});

const claimsOf = (cases: readonly WordingCase[]) =>
  cases.map((each) => ({ claim: each.claim, quote: each.text.slice(...each.quote), source: "t" }));
const request = (cases: readonly WordingCase[]) => ({
  sources: [{ id: "t", text: cases[0]?.text ?? "" }],
  claims: claimsOf(cases),
  check_numbers: "row",
});
// The claims a result keeps, and those it drops with their reasons, in claim order.
const verdicts = (result: {
  citations: { claim: string }[];
  unsupported: { claim: string; reason: string }[];
}) => ({
  kept: result.citations.map((each) => each.claim).sort(),
  dropped: result.unsupported.map((each) => `${each.claim} (${each.reason})`).sort(),
});
const expected = (cases: readonly WordingCase[]) => ({
  kept: cases
    .filter((each) => each.keep)
    .map((each) => each.claim)
    .sort(),
  dropped: cases
    .filter((each) => !each.keep)
    .map((each) => `${each.claim} (number_not_found)`)
    .sort(),
});

describe("the row guarantees through check, create and verified check --jsonl", { timeout: 60_000 }, () => {
  it("claims a sample of every table", () => {
    expect(perTable.map((cases) => cases.length > 10)).toEqual(fixture.map(() => true));
  });

  it("POST /v1/verified/check and POST /v1/verified keep and drop as the guarantees say", async () => {
    const { gateway, service } = await startWithGateway();
    for (const cases of perTable) {
      const checked = await service.post("/v1/verified/check", request(cases));
      expect(checked.status).toBe(200);
      expect(verdicts(checked.body)).toEqual(expected(cases));

      gateway.script.replyWith([claimsContent(...claimsOf(cases))]);
      const created = await service.post("/v1/verified", {
        model: "gpt-test",
        messages: [{ role: "user", content: "What does the table say?" }],
        sources: [{ id: "t", text: cases[0]?.text ?? "" }],
        check_numbers: "row",
        retry: 0,
      });
      expect(created.status).toBe(200);
      expect(verdicts(created.body)).toEqual(expected(cases));
    }
  });

  it("verified check --jsonl keeps and drops as the guarantees say", async () => {
    const input = `${perTable.map((cases) => JSON.stringify(request(cases))).join("\n")}\n`;
    const run = await runBinary(["check", "--jsonl"], { input });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => verdicts(JSON.parse(line)));
    expect(lines).toEqual(perTable.map(expected));
  });
});
