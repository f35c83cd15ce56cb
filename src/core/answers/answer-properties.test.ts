// The guarantees of answer mode (shared/design/answer-mode-guarantees.md) as properties over generated
// answers: minimum functionality (each kind of sentence gets its verdict), invariance (wrapping, unrelated
// sources) and direction (adding what no source holds never helps). Sources and sentences are invented for
// these tests; the generator writes answers with every verdict, astral and combining characters, CRLF line
// breaks and markdown around them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Source } from "../types.js";
import { type AnswerResult, checkAnswer, prepareAnswerSources } from "./check-answer.js";
import type { AnswerReason } from "./clause-check/index.js";

/** Invented sources: distinct vocabularies, so a sentence of one is not supported by another. */
const SOURCES: Source[] = [
  {
    id: "ferry",
    text: [
      "The Blue Heron ferry carries 240 passengers across the bay on each crossing.",
      "Crossings leave Pier 7 every morning – weather permitting – and take 35 minutes.",
      "Adult tickets cost $18, and children under twelve travel for $9.",
      // A combining diaeresis (Zoe + U+0308), not the precomposed ë.
      "Captain Zoe\u0308 Okafor has commanded the vessel since 2011.",
    ].join(" "),
  },
  {
    id: "orchard",
    text: [
      "The Kestrel Valley orchard grows 14 varieties of apple on 60 hectares.",
      "Its cider press was rebuilt in 1987 after a winter flood.",
      "Pickers harvest about 310 tonnes of fruit between August and October.",
      // An astral character (U+1F34E) inside a sentence.
      "The farm shop sells \u{1F34E} juice in 750 ml glass bottles.",
    ].join("\r\n"),
  },
  {
    id: "observatory",
    text: [
      "The Mount Tessel observatory houses a 2.4 metre reflecting telescope.",
      "Its dome opened to visitors in 1968 and draws 52,000 guests a year.",
      "Astronomers there catalogued 1,300 variable stars during a long survey.",
    ].join("\n"),
  },
];

/** Each source's sentences, as the answer copies them. */
const SENTENCES: string[][] = SOURCES.map((source) =>
  source.text.split(/(?<=\.)\s+/).map((sentence) => sentence.trim()),
);

type Expected = "kept" | Exclude<AnswerReason, "partial_support">;

/** One generated claim: its text (markers included) and the verdict a careful reader gives it. */
interface Item {
  text: string;
  expected: Expected;
}

const MARKERS: ((source: number) => string)[] = [
  (source) => ` [${source + 1}]`,
  (source) => ` [${SOURCES[source]?.id}]`,
  (source) => `【${source + 1}†source】`,
  (source) => ` (source: ${SOURCES[source]?.id})`,
];

// Numbers, names and words that no source holds, in any form.
const ABSENT_NUMBERS = ["4821", "97", "3.75", "6,130"];
const ABSENT_NAMES = ["Quexford", "Brannigan", "Velloria", "Ostrava"];
const ABSENT_WORDS = ["velvet", "thunder", "pancakes", "gravel", "orbit", "marble", "sketch", "lanterns"];
const NUMBER = /\$?\d[\d,.]*\d|\$?\d/;

const withoutEnd = (sentence: string): string => sentence.replace(/\.$/, "");

/** The sentence with three of its words (letters and digits only) in double quotes: a true quotation. */
function quoting(body: string, pick: number): string {
  const words = body.split(" ");
  const plain = (word: string | undefined): boolean => word !== undefined && /^[A-Za-z0-9]+$/.test(word);
  for (let offset = 0; offset < words.length; offset++) {
    const at = (pick + offset) % words.length;
    if (!plain(words[at]) || !plain(words[at + 1]) || !plain(words[at + 2])) continue;
    words[at] = `"${words[at]}`;
    words[at + 2] = `${words[at + 2]}"`;
    return words.join(" ");
  }
  return body;
}

/** A sentence of source `source` (its `index`-th), changed as `kind` says, with a marker naming `cited`. */
function itemOf(kind: Expected, source: number, index: number, marker: number, pick: number): Item {
  const sentences = SENTENCES[source] as string[];
  const sentence = sentences[index % sentences.length] as string;
  const mark = MARKERS[marker % MARKERS.length] as (source: number) => string;
  const body = withoutEnd(sentence);
  switch (kind) {
    case "kept":
      return { text: `${pick % 3 === 0 ? quoting(body, pick) : body}${mark(source)}.`, expected: kind };
    case "number_not_found": {
      const number = NUMBER.exec(body);
      if (number === null) return itemOf("kept", source, index, marker, pick);
      const absent = ABSENT_NUMBERS[pick % ABSENT_NUMBERS.length] as string;
      const changed = `${body.slice(0, number.index)}${absent}${body.slice(number.index + number[0].length)}`;
      return { text: `${changed}${mark(source)}.`, expected: kind };
    }
    case "entity_not_found": {
      const name = ABSENT_NAMES[pick % ABSENT_NAMES.length] as string;
      return { text: `${body} near ${name}${mark(source)}.`, expected: kind };
    }
    case "quote_not_found": {
      // Half the time a quotation of the source's own words in other case: found only in lenient mode.
      if (pick % 2 === 0) {
        const quoted = quoting(body, 0);
        if (quoted !== body && /"[^"]*\p{Lu}/u.test(quoted)) {
          const lowered = quoted.replace(/"[^"]*"/, (quotation) => quotation.toLowerCase());
          return { text: `${lowered}${mark(source)}.`, expected: kind };
        }
      }
      const words = `${ABSENT_WORDS[pick % ABSENT_WORDS.length]} ${ABSENT_WORDS[(pick + 3) % ABSENT_WORDS.length]}`;
      return { text: `${body}, "${words}"${mark(source)}.`, expected: kind };
    }
    case "no_support": {
      const words = Array.from({ length: 5 }, (_, at) => ABSENT_WORDS[(pick + at) % ABSENT_WORDS.length]);
      return { text: `Many ${words.join(" ")}${mark(source)}.`, expected: kind };
    }
    case "wrong_source":
      return { text: `${body}${mark((source + 1 + (pick % 2)) % SOURCES.length)}.`, expected: kind };
    case "unknown_source":
      // Far past the sources, so an unrelated source added at the end does not make it name one.
      return { text: `${body} [${20 + (pick % 5)}].`, expected: kind };
  }
}

const KINDS: Expected[] = [
  "kept",
  "kept",
  "no_support",
  "number_not_found",
  "entity_not_found",
  "wrong_source",
  "unknown_source",
  "quote_not_found",
];

const itemArbitrary = fc
  .tuple(
    fc.constantFrom(...KINDS),
    fc.nat(SOURCES.length - 1),
    fc.nat(10),
    fc.nat(MARKERS.length - 1),
    fc.nat(20),
  )
  .map(([kind, source, index, marker, pick]) => itemOf(kind, source, index, marker, pick));

/** What goes before a claim: a space, a line break (LF or CRLF), a list marker, an astral or combining lead. */
const LEADS = [" ", "\n", "\r\n", "\n- ", "\r\n* ", "\n1. ", "\n\n", "\n\u{1F680} ", "\n\u00e9\u0301 "];

interface Answer {
  answer: string;
  items: (Item & { range: [number, number] })[];
}

const answerArbitrary: fc.Arbitrary<Answer> = fc
  .array(fc.tuple(itemArbitrary, fc.constantFrom(...LEADS), fc.boolean()), { minLength: 1, maxLength: 7 })
  .map((parts) => {
    let answer = "";
    const items: Answer["items"] = [];
    for (const [index, [item, lead, heading]] of parts.entries()) {
      // A heading line between claims is no claim.
      if (heading) answer += `${index === 0 ? "" : "\n"}## Part ${index + 1}\n`;
      else if (index > 0) answer += lead;
      const start = answer.length;
      answer += item.text;
      items.push({ ...item, range: [start, answer.length] });
    }
    return { answer, items };
  });

// A claim's answer range holds its generated text, and may hold the lead before it (`🚀 `, `é́ `).
const inside = (range: readonly [number, number], item: readonly [number, number]): boolean =>
  range[0] < item[1] && range[1] > item[0];

/** The verdict the result gives each item: its reason, or kept. */
function verdicts(result: AnswerResult, items: Answer["items"]): ("kept" | AnswerReason)[] {
  return items.map((item) => {
    const miss = result.unsupported.find((entry) => inside(entry.answerRange, item.range));
    return miss === undefined ? "kept" : miss.reason;
  });
}

const RUNS = { seed: Number(process.env.SEED ?? 3501), numRuns: Number(process.env.RUNS ?? 150) };

describe("answer mode, minimum functionality over generated answers", () => {
  it("gives each generated claim its verdict: copied is kept, absent numbers, names, quotations and markers are caught", () => {
    fc.assert(
      fc.property(answerArbitrary, ({ answer, items }) => {
        const result = checkAnswer(SOURCES, answer, { explain: true });
        expect(verdicts(result, items)).toEqual(items.map((item) => item.expected));
        const kept = items.filter((item) => item.expected === "kept").length;
        expect(result.coverage).toBeCloseTo(kept / items.length, 10);
      }),
      RUNS,
    );
  });

  it("reaches every verdict", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(answerArbitrary, ({ answer, items }) => {
        for (const verdict of verdicts(checkAnswer(SOURCES, answer), items)) seen.add(verdict);
      }),
      RUNS,
    );
    expect([...seen].sort()).toEqual([...new Set(KINDS)].sort());
  });

  it("cites a kept claim at a span of its own source holding the copied sentence; wrong_source names that source", () => {
    fc.assert(
      fc.property(answerArbitrary, ({ answer, items }) => {
        const result = checkAnswer(SOURCES, answer);
        for (const item of items) {
          if (item.expected === "kept") {
            const citations = result.citations.filter((citation) => inside(citation.answerRange, item.range));
            expect(citations.length).toBeGreaterThan(0);
            for (const citation of citations) {
              const body = withoutEnd(citation.claim.replace(/^[-*\d. ]+/, "").replaceAll('"', ""));
              expect(citation.quote).toContain(body.slice(body.length - 12));
            }
          }
          if (item.expected === "wrong_source") {
            const miss = result.unsupported.find((entry) => inside(entry.answerRange, item.range));
            const own = SOURCES.findIndex((_, at) =>
              (SENTENCES[at] as string[]).some((s) => item.text.startsWith(withoutEnd(s))),
            );
            expect(miss?.detail).toEqual({ foundIn: [SOURCES[own]?.id] });
          }
        }
      }),
      RUNS,
    );
  });

  it("offsets are true: every range slices its source to its quote, every answer range lies on its claim", () => {
    fc.assert(
      fc.property(answerArbitrary, ({ answer, items }) => {
        const result = checkAnswer(SOURCES, answer, { explain: true });
        for (const entry of [...result.citations, ...result.unsupported]) {
          if (entry.range !== undefined) {
            const source = SOURCES.find((candidate) => candidate.id === entry.source);
            expect(source?.text.slice(...entry.range)).toBe(entry.quote);
          }
          // Each answer range covers exactly one generated claim's text, and no surrogate pair is cut.
          expect(items.filter((item) => inside(entry.answerRange, item.range))).toHaveLength(1);
          const [start, end] = entry.answerRange;
          expect(start).toBeLessThan(end);
          expect(cutsPair(answer, start) || cutsPair(answer, end)).toBe(false);
        }
      }),
      RUNS,
    );
  });
});

// Whether an offset falls between the two halves of a surrogate pair.
const cutsPair = (text: string, at: number): boolean =>
  /[\ud800-\udbff]/.test(text.charAt(at - 1)) && /[\udc00-\udfff]/.test(text.charAt(at));

/** What a verdict is: each claim's reason (or kept), the sources each kept claim cites, and coverage. */
function outcome(sources: readonly Source[], answer: Answer) {
  const result = checkAnswer(sources, answer.answer, { explain: true });
  return {
    verdicts: verdicts(result, answer.items),
    cited: answer.items.map((item) =>
      result.citations
        .filter((citation) => inside(citation.answerRange, item.range))
        .map((citation) => citation.source),
    ),
    coverage: result.coverage,
  };
}

/** Unrelated text: words, names and numbers none of the sources or generated claims use. */
const UNRELATED = [
  "The village bakery opens at dawn and bakes rye loaves in a wood oven.",
  "Its owner, Mirela Dunst, trained in Graz for 3 years.",
];

/** The answer wrapped as chat apps write it: framing before and after, a bold lead-in before some claims. */
function wrapped(answer: Answer, leadIns: readonly boolean[]): Answer {
  const opening = "Here's an overview of what the sources say.\n\n";
  let text = opening;
  let at = 0;
  const items: Answer["items"] = [];
  for (const [index, item] of answer.items.entries()) {
    text += answer.answer.slice(at, item.range[0]);
    // A lead-in where a line or a list item begins, after an emoji too (`🚀 **Point 2.** …`).
    const lineStart = /(?:^|\n)(?:[-*] |1\. |\u{1F680} )?$/u.test(text);
    if (lineStart && leadIns[index % leadIns.length] === true) text += `**Point ${index + 1}.** `;
    const start = text.length;
    text += item.text;
    items.push({ ...item, range: [start, text.length] });
    at = item.range[1];
  }
  text += `${answer.answer.slice(at)}\n\nLet me know if you need anything else!`;
  return { answer: text, items };
}

describe("answer mode, invariance over generated answers", () => {
  it("wrapping the answer in chat framing and bold lead-ins does not change a verdict", () => {
    fc.assert(
      fc.property(
        answerArbitrary,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
        (answer, leadIns) => {
          expect(outcome(SOURCES, wrapped(answer, leadIns))).toEqual(outcome(SOURCES, answer));
        },
      ),
      RUNS,
    );
  });

  it("adding unrelated sentences to the sources, or an unrelated source, does not change a verdict", () => {
    const padded = SOURCES.map((source, at) => ({
      id: source.id,
      text:
        at % 2 === 0 ? `${UNRELATED.join(" ")}\n${source.text}` : `${source.text}\n${UNRELATED.join(" ")}`,
    }));
    const more = [...SOURCES, { id: "bakery", text: UNRELATED.join(" ") }];
    fc.assert(
      fc.property(answerArbitrary, (answer) => {
        const clean = outcome(SOURCES, answer);
        expect(outcome(padded, answer)).toEqual(clean);
        expect(outcome(more, answer)).toEqual(clean);
      }),
      RUNS,
    );
  });
});

/** How scrapers and PDF extraction write a clean text; each part on or off. */
interface Scraping {
  tokenised: boolean;
  ligatures: boolean;
  noBreakSpaces: boolean;
  zeroWidth: boolean;
  brokenHyphens: boolean;
}

const LIGATURES: [string, string][] = [
  ["ffi", "\ufb03"],
  ["ffl", "\ufb04"],
  ["ff", "\ufb00"],
  ["fi", "\ufb01"],
  ["fl", "\ufb02"],
];

/** The text as a scraper or PDF extraction writes it (see `Scraping`). */
function scraped(text: string, how: Scraping): string {
  let out = text;
  if (how.tokenised) {
    out = out
      .replace(/([,;:!?%)])/g, " $1")
      .replace(/\(/g, "( ")
      .replace(/\$(?=\d)/g, "$ ")
      .replace(/'s\b/g, " 's")
      .replace(/ – /g, " -- ")
      .replace(/\.(?=\s|$)/g, " .");
  }
  if (how.ligatures) for (const [letters, ligature] of LIGATURES) out = out.replaceAll(letters, ligature);
  if (how.noBreakSpaces) out = out.replace(/ (?=\p{Lu}|\d)/gu, "\u00a0");
  // Long lower-case words: a zero-width space or soft hyphen inside, or broken across lines at a hyphen.
  if (how.zeroWidth || how.brokenHyphens) {
    let turn = 0;
    out = out.replace(/\b[a-z]{8,}\b/g, (word) => {
      const middle = word.length >> 1;
      const cut =
        how.brokenHyphens && (!how.zeroWidth || turn % 2 === 0)
          ? "-\n"
          : turn % 3 === 0
            ? "\u00ad"
            : "\u200b";
      turn++;
      return `${word.slice(0, middle)}${cut}${word.slice(middle)}`;
    });
  }
  return out;
}

describe("answer mode, sources as scrapers and PDF extraction write them", () => {
  const scraping = fc.record({
    tokenised: fc.boolean(),
    ligatures: fc.boolean(),
    noBreakSpaces: fc.boolean(),
    zeroWidth: fc.boolean(),
    brokenHyphens: fc.boolean(),
  });

  it("a clean source and its scraped variant give the same verdicts and citations", () => {
    fc.assert(
      fc.property(answerArbitrary, scraping, (answer, how) => {
        const variant = SOURCES.map((source) => ({ id: source.id, text: scraped(source.text, how) }));
        expect(outcome(variant, answer)).toEqual(outcome(SOURCES, answer));
      }),
      RUNS,
    );
  });

  it("ranges slice the scraped text as it was given", () => {
    fc.assert(
      fc.property(answerArbitrary, scraping, (answer, how) => {
        const variant = SOURCES.map((source) => ({ id: source.id, text: scraped(source.text, how) }));
        const result = checkAnswer(variant, answer.answer, { explain: true });
        for (const entry of [...result.citations, ...result.unsupported]) {
          if (entry.range === undefined) continue;
          const source = variant.find((candidate) => candidate.id === entry.source);
          expect(source?.text.slice(...entry.range)).toBe(entry.quote);
        }
      }),
      RUNS,
    );
  });

  it("the source text in `detail` (text, seen, sourceText) is the text as it was given", () => {
    let read = 0;
    fc.assert(
      fc.property(answerArbitrary, scraping, (answer, how) => {
        const variant = SOURCES.map((source) => ({ id: source.id, text: scraped(source.text, how) }));
        const result = checkAnswer(variant, answer.answer, { explain: true });
        for (const entry of result.unsupported) {
          const detail = (entry.detail ?? {}) as { text?: string; seen?: string; sourceText?: string };
          for (const text of [detail.text, detail.seen, detail.sourceText]) {
            if (text === undefined) continue;
            read++;
            const whole = text.endsWith("…") ? text.slice(0, -1) : text;
            expect(variant.some((source) => source.text.includes(whole))).toBe(true);
          }
        }
      }),
      RUNS,
    );
    expect(read).toBeGreaterThan(0);
  });

  it("names the supporting span and the sentence where a number was seen in the scraped text", () => {
    const given =
      "The o\ufb03ce in Tromsø opened in 2019 , with 40 sta\ufb00 .\nIts ca\ufb01 opened later.\nMore text here.\nThe Bergen o\ufb03ce has 55 desks .";
    const result = checkAnswer(
      [{ id: "g", text: given }],
      "The office in Tromsø opened in 2019 with 55 staff [g].",
      {
        explain: true,
      },
    );
    expect(result.unsupported).toMatchObject([
      {
        reason: "number_not_found",
        detail: {
          number: "55",
          checked: "quote",
          text: "The o\ufb03ce in Tromsø opened in 2019 , with 40 sta\ufb00 .",
          seen: "The Bergen o\ufb03ce has 55 desks .",
        },
      },
    ]);
  });

  it.each([
    ["quote", "quote"],
    ["row", "line"],
  ] as const)("with check_numbers %s, detail.text is the %s as it was given", (checkNumbers, checked) => {
    const given = "The o\ufb03ce in Tromsø has 40 sta\ufb00 .\nThe Bergen o\ufb03ce has 55 desks .";
    const result = checkAnswer([{ id: "g", text: given }], "The office in Tromsø has 45 staff [g].", {
      explain: true,
      checkNumbers,
    });
    expect(result.unsupported.map((entry) => entry.detail)).toEqual([
      { number: "45", checked, text: "The o\ufb03ce in Tromsø has 40 sta\ufb00 ." },
    ]);
  });

  it.each([
    [
      "pre-tokenised",
      "The ferry , named Blue Heron ( after a bird ) , is the town 's pride -- and costs $ 18 .",
      'The ferry, named "Blue Heron" (after a bird), is the town\'s pride and costs $18 [1].',
    ],
    [
      "ligatures",
      "The \ufb01rst \ufb02ight of the \ufb00erry \ufb01lled every seat.",
      'The "first flight" of the ferry filled every seat [1].',
    ],
    [
      "no-break and zero-width spaces",
      "The\u00a0ferry carries passen\u200bgers and lug\u00adgage.",
      'The ferry carries "passengers and luggage" [1].',
    ],
    [
      "a hyphen broken across lines",
      "The ferry carries passen-\ngers across the bay.",
      'The ferry carries "passengers across the bay" [1].',
    ],
  ])("reads %s as the clean text, and cites the text as given", (_, text, answer) => {
    const result = checkAnswer([{ id: "s", text }], answer, { explain: true });
    expect(result.unsupported).toEqual([]);
    expect(result.citations.map((citation) => [citation.quote, citation.range])).toEqual([
      [text, [0, text.length]],
    ]);
  });
});

describe("answer mode, direction over generated answers", () => {
  it("adding a number or a name no source holds to a claim never keeps a dropped one, never raises coverage", () => {
    const added = fc.tuple(
      answerArbitrary,
      fc.nat(),
      fc.constantFrom(" in 4821", " for Quexford", " near Ostrava", " at 97 sites"),
    );
    fc.assert(
      fc.property(added, ([answer, which, addition]) => {
        const at = which % answer.items.length;
        const item = answer.items[at] as Answer["items"][number];
        const marker = /(?: \[[^\]]*\]|【[^】]*】| \(source: [^)]*\)|)\.$/.exec(item.text) as RegExpExecArray;
        const text = `${item.text.slice(0, marker.index)}${addition}${item.text.slice(marker.index)}`;
        const changed = rebuilt(answer, at, text);
        const before = outcome(SOURCES, answer);
        const after = outcome(SOURCES, changed);
        expect(after.coverage).toBeLessThanOrEqual(before.coverage);
        expect(after.verdicts[at]).not.toBe("kept");
        for (const [index, verdict] of before.verdicts.entries())
          if (verdict !== "kept") expect(after.verdicts[index]).not.toBe("kept");
      }),
      RUNS,
    );
  });

  it("deleting from a kept claim a word no source holds never drops it", () => {
    const padded = fc.tuple(answerArbitrary, fc.nat(), fc.constantFrom(...ABSENT_WORDS));
    fc.assert(
      fc.property(padded, ([answer, which, word]) => {
        const at = which % answer.items.length;
        const item = answer.items[at] as Answer["items"][number];
        // The word after the claim's first word: a kept claim with it may be kept; without it, it must be.
        const space = item.text.indexOf(" ");
        const withWord = rebuilt(answer, at, `${item.text.slice(0, space)} ${word}${item.text.slice(space)}`);
        if (outcome(SOURCES, withWord).verdicts[at] === "kept")
          expect(outcome(SOURCES, answer).verdicts[at]).toBe("kept");
      }),
      RUNS,
    );
  });

  it("adding a sentence of one source to any source never drops a kept claim", () => {
    fc.assert(
      fc.property(answerArbitrary, fc.nat(SOURCES.length - 1), fc.nat(10), (answer, from, index) => {
        const sentence = (SENTENCES[from] as string[])[
          index % (SENTENCES[from] as string[]).length
        ] as string;
        const before = outcome(SOURCES, answer);
        for (const target of SOURCES.keys()) {
          const grown = SOURCES.map((source, at) =>
            at === target ? { id: source.id, text: `${source.text} ${sentence}` } : source,
          );
          const after = outcome(grown, answer);
          for (const [at, verdict] of before.verdicts.entries())
            if (verdict === "kept") expect(after.verdicts[at]).toBe("kept");
        }
      }),
      { ...RUNS, numRuns: Math.ceil(RUNS.numRuns / 3) },
    );
  });
});

/** The answer with its `at`-th claim's text replaced, the ranges after it moved. */
function rebuilt(answer: Answer, at: number, text: string): Answer {
  const item = answer.items[at] as Answer["items"][number];
  const shift = text.length - item.text.length;
  return {
    answer: `${answer.answer.slice(0, item.range[0])}${text}${answer.answer.slice(item.range[1])}`,
    items: answer.items.map((other, index) => {
      if (index < at) return other;
      if (index === at) return { ...other, text, range: [other.range[0], other.range[1] + shift] };
      return { ...other, range: [other.range[0] + shift, other.range[1] + shift] };
    }),
  };
}

describe("answer mode, determinism with prepared sources reused", () => {
  it("checks answers against sources prepared once as it does against fresh ones, in any order and mode", () => {
    const scrapedSources = SOURCES.map((source) => ({
      id: source.id,
      text: scraped(source.text, {
        tokenised: true,
        ligatures: true,
        noBreakSpaces: true,
        zeroWidth: true,
        brokenHyphens: true,
      }),
    }));
    // One set prepared per sources for the whole run: every answer of every run reuses its per-source views.
    const shared = [prepareAnswerSources(SOURCES), prepareAnswerSources(scrapedSources)] as const;
    const checks = fc.array(
      fc.tuple(answerArbitrary, fc.constantFrom("strict" as const, "lenient" as const), fc.nat(1)),
      { minLength: 2, maxLength: 6 },
    );
    fc.assert(
      fc.property(checks, (runs) => {
        for (const [answer, mode, which] of runs) {
          const fresh = (which === 0 ? SOURCES : scrapedSources).map((source) => ({ ...source }));
          const options = { explain: true, mode };
          expect(checkAnswer(shared[which as 0 | 1], answer.answer, options)).toEqual(
            checkAnswer(fresh, answer.answer, options),
          );
        }
      }),
      { ...RUNS, numRuns: Math.ceil(RUNS.numRuns / 2) },
    );
  });
});
