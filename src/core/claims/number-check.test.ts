import { describe, expect, it } from "vitest";
import type { CheckNumbers } from "../types.js";
import { checkNumbers } from "./number-check.js";
import { verifyClaims } from "./verify-claims.js";

const TABLE =
  "| Quarter | Revenue | Profit |\n| --- | --- | --- |\n| Q2 | 1,100 | 210 |\n| Q3 | 1,250 | 230 |";
const SOURCES = [{ id: "q", text: TABLE }];
const QUOTE = "| Q3 | 1,250 | 230 |";

describe("checkNumbers", () => {
  const source = { id: "q", text: TABLE };
  const range: [number, number] = [TABLE.indexOf(QUOTE), TABLE.indexOf(QUOTE) + QUOTE.length];

  it.each([
    {
      name: "source: a number anywhere in the source",
      claim: "Q3 revenue was 210.",
      mode: "source",
      grounded: true,
    },
    {
      name: "source: a number not in the source",
      claim: "Q3 revenue was 999.",
      mode: "source",
      grounded: false,
    },
    { name: "row: the named cell", claim: "Q3 revenue was 1,250.", mode: "row", grounded: true },
    { name: "row: another row's cell", claim: "Q3 revenue was 1,100.", mode: "row", grounded: false },
  ] as const)("$name", ({ claim, mode, grounded }) => {
    expect(checkNumbers(claim, source, range, mode)).toBe(grounded);
  });
});

describe("verifyClaims with each check_numbers value", () => {
  const claims = [
    { claim: "Q3 revenue was 1,250.", quote: QUOTE, source: "q" },
    { claim: "Q3 revenue was 230.", quote: QUOTE, source: "q" },
    { claim: "Q3 revenue was 1,100.", quote: QUOTE, source: "q" },
    { claim: "Q3 revenue was 999.", quote: QUOTE, source: "q" },
  ];
  const range: [number, number] = [TABLE.indexOf(QUOTE), TABLE.indexOf(QUOTE) + QUOTE.length];
  const cite = (claim: string) => ({ claim, quote: QUOTE, source: "q", range });
  const drop = (claim: string) => ({ claim, reason: "number_not_found" });

  it.each([
    { checkNumbers: false, kept: [0, 1, 2, 3] },
    { checkNumbers: true, kept: [0, 1, 2] },
    { checkNumbers: "source", kept: [0, 1, 2] },
    { checkNumbers: "row", kept: [0] },
  ] as { checkNumbers: CheckNumbers; kept: number[] }[])(
    "check_numbers $checkNumbers keeps claims $kept",
    ({ checkNumbers: option, kept }) => {
      const result = verifyClaims(SOURCES, claims, { checkNumbers: option });
      const texts = claims.map((each) => each.claim);
      expect(result).toEqual({
        text: texts
          .filter((_, index) => kept.includes(index))
          .map((claim) => `${claim.slice(0, -1)} [q].`)
          .join(" "),
        citations: texts.filter((_, index) => kept.includes(index)).map(cite),
        unsupported: texts.filter((_, index) => !kept.includes(index)).map(drop),
        coverage: kept.length / claims.length,
      });
    },
  );
});
