import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runSteps } from "../../util.js";
import { type PreparedSource, prepareSources } from "../prepared-source.js";
import { quotePassesAtOnce, quoteSearchSteps } from "../quotes/index.js";
import type { CandidateClaim, CheckNumbers, MatchMode, Source } from "../types.js";
import {
  addSourceMarker,
  assembleClaims,
  type ClaimVerdict,
  checkNumbers,
  explainNumbers,
  judgeClaimSlices,
  judgeClaimSteps,
  judgeClaims,
  verifyClaims,
} from "./verify-claims.js";

const sources: Source[] = [
  { id: "policy", text: "Refunds are accepted within 30 days of purchase. Shipping is free over $50." },
  {
    id: "results",
    text: "| Quarter | Revenue | Profit |\n| --- | --- | --- |\n| Q2 | 1,100 | 90 |\n| Q3 | 1,250 | 120 |",
  },
];

describe("verifyClaims", () => {
  it.each<{
    name: string;
    claims: CandidateClaim[];
    mode?: MatchMode;
    checkNumbers?: CheckNumbers;
    expected: object;
  }>([
    {
      name: "a grounded claim becomes a citation with its marker",
      claims: [{ claim: "Refunds take 30 days.", quote: "within 30 days", source: "policy" }],
      expected: {
        text: "Refunds take 30 days [policy].",
        citations: [
          { claim: "Refunds take 30 days.", quote: "within 30 days", source: "policy", range: [21, 35] },
        ],
        unsupported: [],
        coverage: 1,
      },
    },
    {
      name: "an unknown source id is unknown_source",
      claims: [{ claim: "Refunds take 30 days.", quote: "within 30 days", source: "faq" }],
      expected: {
        text: "",
        citations: [],
        unsupported: [
          {
            claim: "Refunds take 30 days.",
            reason: "unknown_source",
            quote: "within 30 days",
            source: "faq",
          },
        ],
        coverage: 0,
      },
    },
    {
      name: "a missing source is unknown_source",
      claims: [{ claim: "Refunds take 30 days.", quote: "within 30 days" }],
      expected: {
        text: "",
        citations: [],
        unsupported: [{ claim: "Refunds take 30 days.", reason: "unknown_source", quote: "within 30 days" }],
        coverage: 0,
      },
    },
    {
      name: "a quote absent from its source is quote_not_found",
      claims: [{ claim: "Refunds take 60 days.", quote: "within 60 days", source: "policy" }],
      expected: {
        text: "",
        citations: [],
        unsupported: [
          {
            claim: "Refunds take 60 days.",
            reason: "quote_not_found",
            quote: "within 60 days",
            source: "policy",
          },
        ],
        coverage: 0,
      },
    },
    {
      name: "an empty quote is quote_not_found",
      claims: [{ claim: "Refunds exist.", quote: "  ", source: "policy" }],
      expected: {
        text: "",
        citations: [],
        unsupported: [{ claim: "Refunds exist.", reason: "quote_not_found", quote: "  ", source: "policy" }],
        coverage: 0,
      },
    },
    {
      name: "a missing claim takes the quote's text",
      claims: [{ quote: "Shipping is free over $50.", source: "policy" }],
      expected: {
        text: "Shipping is free over $50 [policy].",
        citations: [
          {
            claim: "Shipping is free over $50.",
            quote: "Shipping is free over $50.",
            source: "policy",
            range: [49, 75],
          },
        ],
        unsupported: [],
        coverage: 1,
      },
    },
    {
      name: "an empty claim takes the quote's text",
      claims: [{ claim: "", quote: "within 30 days", source: "policy" }],
      expected: {
        text: "within 30 days [policy]",
        citations: [{ claim: "within 30 days", quote: "within 30 days", source: "policy", range: [21, 35] }],
        unsupported: [],
        coverage: 1,
      },
    },
    {
      name: "numbers are not checked when check_numbers is off",
      claims: [{ claim: "Refunds take 45 days.", quote: "within 30 days", source: "policy" }],
      checkNumbers: false,
      expected: {
        text: "Refunds take 45 days [policy].",
        citations: [
          { claim: "Refunds take 45 days.", quote: "within 30 days", source: "policy", range: [21, 35] },
        ],
        unsupported: [],
        coverage: 1,
      },
    },
    {
      name: "a number absent from the source is number_not_found with check_numbers true",
      claims: [{ claim: "Refunds take 45 days.", quote: "within 30 days", source: "policy" }],
      checkNumbers: true,
      expected: {
        text: "",
        citations: [],
        unsupported: [
          {
            claim: "Refunds take 45 days.",
            reason: "number_not_found",
            detail: { number: "45", checked: "source" },
            quote: "within 30 days",
            source: "policy",
          },
        ],
        coverage: 0,
      },
    },
    {
      name: "a number absent from the source is number_not_found with check_numbers source",
      claims: [{ claim: "Refunds take 45 days.", quote: "within 30 days", source: "policy" }],
      checkNumbers: "source",
      expected: {
        text: "",
        citations: [],
        unsupported: [
          {
            claim: "Refunds take 45 days.",
            reason: "number_not_found",
            detail: { number: "45", checked: "source" },
            quote: "within 30 days",
            source: "policy",
          },
        ],
        coverage: 0,
      },
    },
    {
      name: "row mode keeps the right cell and drops a right number from the wrong column",
      claims: [
        { claim: "Q3 revenue was 1,250.", quote: "| Q3 | 1,250 | 120 |", source: "results" },
        { claim: "Q3 revenue was 120.", quote: "| Q3 | 1,250 | 120 |", source: "results" },
      ],
      checkNumbers: "row",
      expected: {
        text: "Q3 revenue was 1,250 [results].",
        citations: [
          {
            claim: "Q3 revenue was 1,250.",
            quote: "| Q3 | 1,250 | 120 |",
            source: "results",
            range: [71, 91],
          },
        ],
        unsupported: [
          {
            claim: "Q3 revenue was 120.",
            reason: "number_not_found",
            detail: {
              number: "120",
              checked: "cells",
              cells: [{ row: "Q3", column: "Revenue", text: "1,250" }],
            },
            quote: "| Q3 | 1,250 | 120 |",
            source: "results",
          },
        ],
        coverage: 0.5,
      },
    },
    {
      name: "claims keep their order and coverage is grounded over total",
      claims: [
        { claim: "Shipping is free.", quote: "Shipping is free", source: "policy" },
        { claim: "Returns cost $5.", quote: "Returns cost $5", source: "policy" },
        { claim: "Refunds take 30 days!", quote: "30 days", source: "policy" },
      ],
      expected: {
        text: "Shipping is free [policy]. Refunds take 30 days [policy]!",
        citations: [
          { claim: "Shipping is free.", quote: "Shipping is free", source: "policy", range: [49, 65] },
          { claim: "Refunds take 30 days!", quote: "30 days", source: "policy", range: [28, 35] },
        ],
        unsupported: [
          {
            claim: "Returns cost $5.",
            reason: "quote_not_found",
            quote: "Returns cost $5",
            source: "policy",
          },
        ],
        coverage: 2 / 3,
      },
    },
    {
      name: "no claims give coverage 0",
      claims: [],
      expected: { text: "", citations: [], unsupported: [], coverage: 0 },
    },
  ])("$name", ({ claims, mode, checkNumbers, expected }) => {
    expect(verifyClaims(sources, claims, { mode, checkNumbers, explain: true })).toEqual(expected);
  });

  it("the source check runs before the quote check", () => {
    const result = verifyClaims(sources, [{ claim: "x", quote: "nowhere", source: "missing" }]);
    expect(result.unsupported).toEqual([
      { claim: "x", reason: "unknown_source", quote: "nowhere", source: "missing" },
    ]);
  });

  it("gives a strict quote that was not found the lenient match as its near match", () => {
    const claims = [
      { claim: "Refunds take 30 days.", quote: "WITHIN 30 days, of purchase", source: "policy" },
    ];
    const [strict] = verifyClaims(sources, claims).unsupported;
    expect(strict).toEqual({
      claim: "Refunds take 30 days.",
      reason: "quote_not_found",
      quote: "WITHIN 30 days, of purchase",
      source: "policy",
      near: { quote: "within 30 days of purchase", range: [21, 47] },
    });
    const text = sources[0]?.text ?? "";
    expect(text.slice(21, 47)).toBe(strict?.near?.quote);
    // Lenient mode has no looser match to offer, and a quote found nowhere has no near match.
    expect(verifyClaims(sources, claims, { mode: "lenient" }).citations).toHaveLength(1);
    const nowhere = verifyClaims(sources, [{ claim: "x", quote: "within 90 days", source: "policy" }]);
    expect(nowhere.unsupported[0]?.near).toBeUndefined();
  });

  it("ignores non-string fields a model may send", () => {
    const claims = [{ claim: 5, quote: ["x"], source: null }] as unknown as CandidateClaim[];
    expect(verifyClaims(sources, claims)).toEqual({
      text: "",
      citations: [],
      unsupported: [{ claim: "", reason: "unknown_source" }],
      coverage: 0,
    });
  });
});

describe("verifyClaims properties", () => {
  const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
  const sourceText = fc.array(word, { minLength: 1, maxLength: 40 }).map((words) => words.join(" "));

  it("every citation range slices to its quote, in both modes and every number mode", () => {
    fc.assert(
      fc.property(
        sourceText,
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { maxLength: 8 }),
        fc.constantFrom<MatchMode>("strict", "lenient"),
        fc.constantFrom<CheckNumbers>(false, true, "row"),
        (text, picks, mode, checkNumbers) => {
          const words = text.split(" ");
          const claims = picks.map(([a, b, wrongSource]) => {
            const start = a % words.length;
            const end = start + 1 + (b % (words.length - start));
            return { quote: words.slice(start, end).join(" "), source: wrongSource ? "other" : "s" };
          });
          const sourceList = [
            { id: "s", text },
            { id: "other", text: "unrelated words here" },
          ];
          const result = verifyClaims(sourceList, claims, { mode, checkNumbers });
          for (const citation of result.citations) {
            const cited = sourceList.find((source) => source.id === citation.source);
            expect(cited?.text.slice(citation.range[0], citation.range[1])).toBe(citation.quote);
          }
          expect(result.citations.length + result.unsupported.length).toBe(claims.length);
        },
      ),
    );
  });

  it("same input gives deep-equal output", () => {
    fc.assert(
      fc.property(sourceText, fc.array(word, { maxLength: 5 }), (text, quotes) => {
        const claims = quotes.map((quote) => ({ quote, source: "s" }));
        const first = verifyClaims([{ id: "s", text }], claims, { mode: "lenient", checkNumbers: "row" });
        const second = verifyClaims([{ id: "s", text }], claims, { mode: "lenient", checkNumbers: "row" });
        expect(second).toEqual(first);
      }),
    );
  });
});

describe("judgeClaimSteps: the claim check cut into slices of bounded work", () => {
  // Texts of few distinct words, so quotes often match, nearly match, or match only loosely.
  const word = fc.constantFrom("a", "b", "a.", "B", "7", "1,250", "Q3", "|", "\n", "rose");
  const text = fc.array(word, { minLength: 1, maxLength: 30 }).map((words) => words.join(" "));
  const table = fc
    .array(fc.tuple(fc.constantFrom("a", "Q3", "x"), fc.constantFrom("1", "7", "1,250")), { maxLength: 5 })
    .map((rows) =>
      ["| Label | Value |", "| --- | --- |", ...rows.map(([l, v]) => `| ${l} | ${v} |`)].join("\n"),
    );
  const claim = fc.record({
    claim: fc.oneof(text, fc.constant("")),
    quote: fc.oneof(text, fc.constantFrom("| a | 1 |", "a  b", '"a b"', "")),
    source: fc.constantFrom("s", "t", "missing"),
  });

  it("gives verifyClaims's result (text, citations, unsupported, coverage, order) for any slice budget", () => {
    fc.assert(
      fc.property(
        text,
        table,
        fc.array(claim, { maxLength: 12 }),
        fc.constantFrom<MatchMode>("strict", "lenient"),
        fc.constantFrom<CheckNumbers>(false, true, "source", "row", "quote"),
        fc.boolean(),
        fc.nat({ max: 200 }),
        (sourceText, tableText, claims, mode, numbers, explain, budget) => {
          const options = { mode, checkNumbers: numbers, explain };
          // Fresh sources for each side: neither reuses what the other memoized.
          const sourcesOf = () => [
            { id: "s", text: sourceText },
            { id: "t", text: tableText },
          ];
          const sliced = assembleClaims(runSteps(judgeClaimSteps(sourcesOf(), claims, options, budget)));
          expect(sliced).toEqual(verifyClaims(sourcesOf(), claims, options));
        },
      ),
    );
  });

  it("gives each claim the verdict it gets alone, when many quotes against a source are found at once", () => {
    fc.assert(
      fc.property(
        text,
        fc.array(claim, { minLength: 40, maxLength: 80 }),
        fc.constantFrom<MatchMode>("strict", "lenient"),
        (sourceText, claims, mode) => {
          const sourcesOf = () => [{ id: "s", text: sourceText }];
          const alone = claims.map((candidate) => judgeClaims(sourcesOf(), [candidate], { mode })[0]);
          expect(judgeClaims(sourcesOf(), claims, { mode })).toEqual(alone);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("yields once per budget's worth of work: many distinct near-miss quotes against a large source", () => {
    const source = { id: "s", text: "a ".repeat(5_000) };
    const claims = Array.from({ length: 200 }, (_, index) => ({
      claim: "c",
      quote: `${"a ".repeat(10 + index)}b`,
      source: "s",
    }));
    const budget = 100_000;
    const prepared = prepareSources([source]);
    const steps = judgeClaimSteps(prepared, claims, {}, budget);
    let slices = 1;
    while (steps.next().done !== true) slices += 1;
    // Each claim's work is at least the source's 10,000 characters, and a slice ends once it reaches the
    // budget: at most ten claims a slice, so at least 200 / 11 slices; and at most one slice per budget's
    // worth of the claims' work and quote-search steps, plus one.
    const estimated = claims.reduce((sum, claim) => sum + 1 + 10_000 + claim.quote.length + 1, 0);
    const searched = quoteSearchSteps(prepared.get("s") as PreparedSource);
    expect(slices).toBeGreaterThanOrEqual(Math.floor(200 / 11));
    expect(slices).toBeLessThanOrEqual(Math.ceil((estimated + searched) / budget) + 1);
  });

  it("counts the quote-search steps a claim took in its slice's work", () => {
    const gen = (index: number) => `w${index.toString(36)}x`;
    const source = { id: "s", text: Array.from({ length: 2_500 }, (_, index) => gen(index)).join(" ") };
    const n = source.text.length;
    // Quotes no source holds, each of distinct invented words: every search reads the source.
    const claims = Array.from({ length: 100 }, (_, index) => ({
      claim: "c",
      quote: Array.from({ length: 150 }, (_, word) => `q${index}z${word}`)
        .join(" ")
        .slice(0, 1_000),
      source: "s",
    }));
    // Ten claims' estimates a slice: ten slices, were searches not counted.
    const budget = 10 * (1 + n + 1_000 + 1);
    const steps = judgeClaimSteps([source], claims, {}, budget);
    let slices = 1;
    while (steps.next().done !== true) slices += 1;
    // The searches add about a third to the estimates here (13 slices).
    expect(slices).toBeGreaterThanOrEqual(12);
  });

  it("gives each pass at once a slice of its own, a claim's strict pass and its near match's lenient one too", () => {
    const source = { id: "s", text: "a ".repeat(5_000) };
    // Distinct near misses, each found leniently (case aside) but not strictly, and each strict search
    // costly: once searches at once start, the passes of both modes each find many quotes.
    const claims = Array.from({ length: 600 }, (_, index) => ({
      claim: "c",
      quote: `${"a ".repeat(10 + index)}A`,
      source: "s",
    }));
    const prepared = prepareSources([source]);
    const cited = prepared.get("s") as PreparedSource;
    const passes = () => quotePassesAtOnce(cited, "strict") + quotePassesAtOnce(cited, "lenient");
    // No budget to reach: the only slice ends are those the passes make.
    const slices = judgeClaimSlices(prepared, claims, {}, Number.POSITIVE_INFINITY);
    const verdicts: ClaimVerdict[] = [];
    // The passes at once run so far, at each slice end.
    const ends: number[] = [];
    for (;;) {
      const next = slices.next();
      verdicts.push(...next.value);
      ends.push(passes());
      if (next.done === true) break;
    }
    // Both modes run several passes, and here claims run a strict pass and then a lenient one for their
    // near match: were the slice not ended between them, a slice would hold both.
    expect(quotePassesAtOnce(cited, "strict")).toBeGreaterThan(1);
    expect(quotePassesAtOnce(cited, "lenient")).toBeGreaterThan(1);
    // No slice holds two passes.
    const perSlice = ends.map((count, index) => count - (ends[index - 1] ?? 0));
    expect(perSlice.filter((count) => count > 1)).toEqual([]);
    expect(verdicts).toEqual(judgeClaims([source], claims));
    expect(verdicts.filter((verdict) => verdict.grounded || verdict.unsupported.near === undefined)).toEqual(
      [],
    );
  });

  it("runs straight through, with no yield, within one budget", () => {
    const steps = judgeClaimSteps([{ id: "s", text: "a b" }], [{ quote: "a", source: "s" }], {}, 1_000);
    expect(steps.next()).toMatchObject({ done: true });
  });
});

describe("addSourceMarker", () => {
  it.each([
    { name: "before a final period", claim: "Revenue rose 5%.", expected: "Revenue rose 5% [q3]." },
    { name: "before a final question mark", claim: "Is it open?", expected: "Is it open [q3]?" },
    { name: "before a final exclamation mark", claim: "It grew!", expected: "It grew [q3]!" },
    {
      name: "appended without final punctuation",
      claim: "Revenue rose 5%",
      expected: "Revenue rose 5% [q3]",
    },
    { name: "after trimming whitespace", claim: "  Revenue rose.  \n", expected: "Revenue rose [q3]." },
    {
      name: "before a full-width full stop",
      claim: "東京は日本の首都です。",
      expected: "東京は日本の首都です [q3]。",
    },
    { name: "only the final period moves", claim: "Approx. 5 p.m.", expected: "Approx. 5 p.m [q3]." },
  ])("$name", ({ claim, expected }) => {
    expect(addSourceMarker(claim, "q3")).toBe(expected);
  });
});

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
    {
      name: "quote: a number of the claim's quote",
      claim: "Q3 profit was 230.",
      mode: "quote",
      grounded: true,
    },
    {
      name: "quote: a number of the source but not of the quote",
      claim: "Q2 profit was 210.",
      mode: "quote",
      grounded: false,
    },
  ] as const)("$name", ({ claim, mode, grounded }) => {
    expect(checkNumbers(claim, source, range, mode)).toBe(grounded);
  });
});

describe("explainNumbers: the number that failed and what it was checked against", () => {
  const source = { id: "q", text: TABLE };
  const range: [number, number] = [TABLE.indexOf(QUOTE), TABLE.indexOf(QUOTE) + QUOTE.length];

  it.each([
    { mode: "source", claim: "Q3 revenue was 999.", miss: { number: "999", checked: "source" } },
    { mode: "quote", claim: "Q3 revenue was 210.", miss: { number: "210", checked: "quote", text: QUOTE } },
    {
      mode: "row",
      claim: "Q3 revenue was 230.",
      miss: { number: "230", checked: "cells", cells: [{ row: "Q3", column: "Revenue", text: "1,250" }] },
    },
    { mode: "row", claim: "Q3 revenue was 1,250.", miss: null },
  ] as const)("$mode: $claim", ({ mode, claim, miss }) => {
    expect(explainNumbers(claim, source, range, mode)).toEqual(miss);
  });

  it("row, with nothing named: the quoted line", () => {
    const text = "Prices rose.\nAnalysts: 12 covered the stock in 2024.";
    const quote = "covered the stock";
    const at = text.indexOf(quote);
    expect(
      explainNumbers("13 analysts covered it.", { id: "p", text }, [at, at + quote.length], "row"),
    ).toEqual({
      number: "13",
      checked: "line",
      text: "Analysts: 12 covered the stock in 2024.",
    });
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
    { checkNumbers: "quote", kept: [0, 1] },
  ] as { checkNumbers: CheckNumbers; kept: number[] }[])(
    "check_numbers $checkNumbers keeps claims $kept",
    ({ checkNumbers: option, kept }) => {
      const result = verifyClaims(SOURCES, claims, { checkNumbers: option });
      const texts = claims.map((each) => each.claim);
      const reasons = result.unsupported.map(({ claim, reason }) => ({ claim, reason }));
      expect({ ...result, unsupported: reasons }).toEqual({
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
