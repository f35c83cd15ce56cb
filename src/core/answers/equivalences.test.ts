import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forEachScaledNumber } from "../numbers/index.js";
import { forEachWord } from "../text/index.js";
import { checkAnswer } from "./check-answer.js";
import {
  digitRunShapes,
  forEachDate,
  forEachEquivalenceKey,
  forEachEquivalenceKeyInPieces,
  forEachYearStart,
  monthOf,
  type ReadWord,
  SHORT_YEAR_RANGE,
  withoutEquivalentNumbers,
} from "./equivalences.js";

// Each equivalence is tried both ways (the source writes one form, the answer the other), and beside it the
// same answer with the name or number changed to one no source holds, which must still be caught.
const verdict = (source: string, answer: string): string =>
  checkAnswer([{ id: "s", text: source }], `${answer} [1]`).unsupported[0]?.reason ?? "kept";

describe("equivalences: names", () => {
  it.each([
    ["The team was founded in the United States in 1990.", "The team was founded in the U.S. in 1990."],
    ["The team was founded in the US in 1990.", "The team was founded in the United States in 1990."],
    [
      "The reporter covered the Libyan civil war in 2011.",
      "The reporter covered the civil war in Libya in 2011.",
    ],
    ["The British store opened in 1990.", "The store opened in the United Kingdom in 1990."],
    ["The store opened in the United Kingdom in 1990.", "The British store opened in 1990."],
    [
      "The festival was covered by TechCrunch in detail.",
      "The festival was covered by Tech Crunch in detail.",
    ],
    [
      "The festival was covered by Tech Crunch in detail.",
      "The festival was covered by TechCrunch in detail.",
    ],
    ["The National Air and Space Museum opened a new hall.", "The NASM opened a new hall."],
    ["The show ran on the A.V. Club site.", "The show ran on the AV Club site."],
    ["The show ran on the AV Club site.", "The show ran on the A.V. Club site."],
  ])("%j holds %j", (source, answer) => {
    expect(verdict(source, answer)).toBe("kept");
    // The reverse form of the same pair is the other row; a name no source holds is still caught.
    expect(verdict(source, answer.replace(/\.$/, " in Peru."))).toBe("entity_not_found");
  });

  it("a name held in no form stays entity_not_found", () => {
    expect(
      verdict(
        "The team was founded in the United States in 1990.",
        "The team was founded in the U.K. in 1990.",
      ),
    ).toBe("entity_not_found");
    expect(
      verdict("The reporter covered the Libyan civil war.", "The reporter covered the Syrian civil war."),
    ).toBe("entity_not_found");
    expect(verdict("The festival was covered by TechCrunch.", "The festival was covered by Tech Wire.")).toBe(
      "entity_not_found",
    );
    expect(
      verdict("The NASM opened a new hall.", "The National Art and Science Museum opened a new hall."),
    ).toBe("entity_not_found");
  });

  it("`us` the pronoun is not the United States", () => {
    expect(
      verdict("They told us the plant opened in 1990.", "The plant opened in the United States in 1990."),
    ).toBe("entity_not_found");
  });

  it("an acronym the answer defines counts when the sources hold every word of the name it defines", () => {
    const source = "The Space Museum, run by the National Air board, opened a hall in 2021.";
    const defined =
      "The National Air and Space Museum (NASM) opened a hall in 2021 [1]. The NASM opened a hall [1].";
    expect(checkAnswer([{ id: "s", text: source }], defined).unsupported).toEqual([]);
    const undefinedHere = "The NASM opened a hall [1].";
    expect(checkAnswer([{ id: "s", text: source }], undefinedHere).unsupported[0]?.reason).toBe(
      "entity_not_found",
    );
    const wrongName =
      "The National Art and Space Museum (NASM) opened a hall [1]. The NASM opened a hall [1].";
    expect(
      checkAnswer([{ id: "s", text: source }], wrongName).unsupported.map((entry) => entry.reason),
    ).toEqual(["entity_not_found", "entity_not_found"]);
  });

  it("an acronym a heading defines counts for the claims under it", () => {
    const source = "The Space Museum, run by the National Air board, opened a hall in 2021.";
    const answer = "## National Air and Space Museum (NASM)\n\nThe NASM opened a hall [1].";
    expect(checkAnswer([{ id: "s", text: source }], answer).unsupported).toEqual([]);
    const wrongName = "## National Art and Space Museum (NASM)\n\nThe NASM opened a hall [1].";
    expect(checkAnswer([{ id: "s", text: source }], wrongName).unsupported[0]?.reason).toBe(
      "entity_not_found",
    );
  });
});

describe("equivalences: dates and months", () => {
  it.each([
    [
      "The album was released on 2018-11-10 in Europe.",
      "The album was released on November 10, 2018 in Europe.",
    ],
    [
      "The album was released on November 10, 2018 in Europe.",
      "The album was released on 2018-11-10 in Europe.",
    ],
    [
      "The album was released on 10 Nov. 2018 in Europe.",
      "The album was released on November 10, 2018 in Europe.",
    ],
    [
      "The album was released on November 10, 2018 in Europe.",
      "The album was released on 10 Nov 2018 in Europe.",
    ],
    [
      "The album was released on 2018.11.10 in Europe.",
      "The album was released on 10 November 2018 in Europe.",
    ],
    [
      "The album was released on 13/08/1961 in Europe.",
      "The album was released on August 13, 1961 in Europe.",
    ],
    [
      "The album was released on August 13, 1961 in Europe.",
      "The album was released on 13/08/1961 in Europe.",
    ],
  ])("%j holds %j", (source, answer) => {
    expect(verdict(source, answer)).toBe("kept");
  });

  it("another day, month or year is still caught", () => {
    const source = "The album was released on 2018-11-10 in Europe.";
    expect(verdict(source, "The album was released on November 11, 2018 in Europe.")).toBe(
      "number_not_found",
    );
    expect(verdict(source, "The album was released on December 10, 2018 in Europe.")).toBe(
      "entity_not_found",
    );
    expect(verdict(source, "The album was released on November 10, 2019 in Europe.")).toBe(
      "number_not_found",
    );
  });

  it("reads a numeric date only when its order is certain", () => {
    const dates: string[] = [];
    for (const text of ["on 13/08/1961", "on 08/13/1961", "on 05/06/1961", "on 2003.06.11"])
      forEachDate(text, ({ date }) => dates.push(date));
    expect(dates).toEqual(["1961-08-13", "1961-08-13", "2003-06-11"]);
    expect(monthOf("Sept.")).toBe(9);
    expect(monthOf("mar")).toBe(0);
    expect(monthOf("Mar")).toBe(3);
  });
});

describe("equivalences: a dated page's days, year ranges written short", () => {
  const page = "Posted March 14, 2021\nThe ferry Aldersund ran aground on March 9 near the harbour mouth.";

  it("a day and month with no year are read in the year of the page's dateline", () => {
    expect(verdict(page, "The ferry Aldersund ran aground on March 9, 2021 near the harbour mouth.")).toBe(
      "kept",
    );
    expect(verdict(page, "The ferry Aldersund ran aground on 9 March 2021 near the harbour mouth.")).toBe(
      "kept",
    );
  });

  it("another day or year is still caught", () => {
    expect(verdict(page, "The ferry Aldersund ran aground on March 8, 2021 near the harbour mouth.")).toBe(
      "number_not_found",
    );
    expect(verdict(page, "The ferry Aldersund ran aground on March 9, 2020 near the harbour mouth.")).toBe(
      "number_not_found",
    );
    // Without a dateline there is no year to read the day in.
    const undated = "The ferry Aldersund ran aground on March 9 near the harbour mouth.";
    expect(verdict(undated, "The ferry Aldersund ran aground on March 9, 2021 near the harbour mouth.")).toBe(
      "number_not_found",
    );
  });

  it("a full date a source holds counts towards support, in any form, and its words are the date's", () => {
    const notice = [
      { id: "n", text: "The Vireo footbridge reopens to walkers on 2 March 2026 after repairs." },
    ];
    const outcome = (answer: string) => {
      const result = checkAnswer(notice, answer);
      return [result.unsupported.map((entry) => entry.reason), result.partial.map((entry) => entry.term)];
    };
    expect(outcome("The footbridge's opening date is 2026-03-02 [n].")).toEqual([[], ["opening"]]);
    expect(outcome("The Vireo footbridge reopens on Mar 2, 2026 [n].")).toEqual([[], []]);
    expect(outcome("The footbridge's opening date is 2026-03-03 [n].")[0]).toEqual(["no_support"]);
    // A clause of one other word and the date is partially supported: kept with that word named, or dropped
    // under `partial: "drop"`; with two words the span lacks, the date alone is too little.
    expect(outcome("He resigned on 2 March 2026 [n].")).toEqual([[], ["resigned"]]);
    expect(
      checkAnswer(notice, "He resigned on 2 March 2026 [n].", { partial: "drop" }).unsupported.map(
        (e) => e.reason,
      ),
    ).toEqual(["partial_support"]);
    expect(outcome("The mayor resigned on 2 March 2026 [n].")[0]).toEqual(["no_support"]);
  });

  it("a year range written short ends in the full year, both ways", () => {
    const full = "The library renovation runs through the 2023-2024 school year.";
    const short = "The library renovation runs through the 2023–24 school year.";
    expect(verdict(full, "The library renovation runs through the 2023–24 school year.")).toBe("kept");
    expect(verdict(short, "The library renovation runs through the 2023-2024 school year.")).toBe("kept");
    expect(verdict(full, "The library renovation runs through the 2023–25 school year.")).toBe(
      "number_not_found",
    );
  });

  it("a number of the page's title or headline counts for any sentence of it", () => {
    const titled =
      "# Kestrel Books opens in Leeds with 3,200 titles\n\nIts owner, Ada Quist, ran a market stall. It sold maps. The shop is on Briggate.";
    expect(verdict(titled, "Kestrel Books opened on Briggate with 3,200 titles.")).toBe("kept");
    expect(verdict(titled, "Kestrel Books opened on Briggate with 3,400 titles.")).toBe("number_not_found");
    // A sentence that names its own year is not about the page's.
    const yearly =
      "# Kestrel Books in 2024\n\nIts owner, Ada Quist, ran a market stall. It sold maps. In 2022 the shop hosted 40 readings.";
    expect(verdict(yearly, "In 2022 the shop hosted 40 readings.")).toBe("kept");
    expect(verdict(yearly, "In 2024 the shop hosted 40 readings.")).toBe("number_not_found");
    // A heading below the page's headline is not the page's headline.
    const section =
      "# Kestrel Books\n\nThe shop is on Briggate. It sells maps. It sells prints.\n\n## Prices from 1990\n\nIts owner, Ada Quist, ran a market stall.";
    expect(verdict(section, "Kestrel Books opened on Briggate in 1990.")).toBe("number_not_found");
  });
});

describe("equivalences: number forms", () => {
  it.each([
    ["The firm sold 21,000 units.", "The firm sold 21K units."],
    ["The firm sold 21K units.", "The firm sold 21,000 units."],
    ["The firm sold 21 thousand units.", "The firm sold 21,000 units."],
    ["The firm sold 21,000 units.", "The firm sold 21 thousand units."],
    ["The city has 1.2 million people.", "The city has 1,200,000 people."],
    ["The city has 1,200,000 people.", "The city has 1.2 million people."],
    ["The style peaked in the 2000s.", "The style peaked in the 2000's."],
    ["The style peaked in the 2000's.", "The style peaked in the 2000s."],
  ])("%j holds %j", (source, answer) => {
    expect(verdict(source, answer)).toBe("kept");
  });

  it("another value in any form is still caught", () => {
    expect(verdict("The firm sold 21,000 units.", "The firm sold 22K units.")).toBe("number_not_found");
    expect(verdict("The firm sold 21K units.", "The firm sold 21 million units.")).toBe("number_not_found");
    expect(verdict("The city has 1.2 million people.", "The city has 1,300,000 people.")).toBe(
      "number_not_found",
    );
    expect(verdict("The style peaked in the 2000s.", "The style peaked in the 1990s.")).toBe(
      "number_not_found",
    );
  });
});

describe("forEachEquivalenceKeyInPieces", () => {
  const keysWhole = (text: string): string[] => {
    const keys: string[] = [];
    forEachEquivalenceKey(text, (key, start, end) => keys.push(`${key}@${start}-${end}`));
    return keys;
  };
  // Capitalised and small words (initials runs), countries' names and forms, months, capitals with dots,
  // numbers, non-ASCII letters, CJK, and the cuts' spaces and line breaks.
  const PARTS = [
    "National",
    "Air",
    "and",
    "Space",
    "Museum",
    "of",
    "the",
    "United",
    "States",
    "Republic",
    "Korea",
    "U.S.",
    "NASA",
    "October",
    "Tech",
    "Crunch",
    "alpha",
    "1,600",
    "Größe",
    "東京都",
    "している",
    "ภาษาไทย",
    " ",
    " ",
    " ",
    "\n",
    ".",
    "(",
  ];
  it("visits the same keys, in the same order, as reading the text whole, pausing between pieces", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PARTS), { maxLength: 120 }),
        fc.integer({ min: 1, max: 40 }),
        (parts, pieceChars) => {
          const text = parts.join("");
          const keys: string[] = [];
          const pieces = forEachEquivalenceKeyInPieces(text, pieceChars, (key, start, end) =>
            keys.push(`${key}@${start}-${end}`),
          );
          for (let step = pieces.next(); step.done !== true; step = pieces.next());
          expect(keys).toEqual(keysWhole(text));
        },
      ),
      { seed: 34, numRuns: 400 },
    );
  });

  it("pauses once per piece of a long text in scripts without spaces, Japanese, Chinese or Thai", () => {
    for (const unit of [
      "NASAが新しい製品を発表した。 ",
      "杭州一家电池制造商宣布扩建工厂。 ",
      "บริษัทประกาศขยายโรงงาน NASA ",
    ]) {
      const text = unit.repeat(1_000);
      let pauses = 0;
      const pieces = forEachEquivalenceKeyInPieces(text, 1_000, () => {});
      for (let step = pieces.next(); step.done !== true; step = pieces.next()) pauses++;
      expect(pauses).toBeGreaterThanOrEqual(text.length / 1_100);
    }
  });

  it("pauses once per piece of a long spaced text", () => {
    const text = "The Bank of the United States opened. ".repeat(1_000);
    let pauses = 0;
    const pieces = forEachEquivalenceKeyInPieces(text, 1_000, () => {});
    for (let step = pieces.next(); step.done !== true; step = pieces.next()) pauses++;
    expect(pauses).toBeGreaterThanOrEqual(text.length / 1_100);
  });
});

describe("forEachEquivalenceKey: linear", () => {
  // The words it reads are counted through a proxy of the word list: a run of small words after capitalised
  // ones (`The the the …`, `Of the of the …`) must not be read again from each capitalised word.
  it.each([
    ["The ", 20_000],
    ["Of the ", 10_000],
    ["The Bank of the ", 5_000],
  ])("reads %j × %i in a bounded number of word reads per word", (unit, times) => {
    const text = unit.repeat(times);
    const words: ReadWord[] = [];
    forEachWord(text, (folded, start, end) => words.push({ folded, start, end }));
    let reads = 0;
    const counted = new Proxy(words, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    forEachEquivalenceKey(text, () => {}, counted);
    expect(reads).toBeLessThan(40 * words.length);
  });
});

describe("forEachDate's look back before a year", () => {
  // The named dates as read with the pattern before every year, without the look back that skips most years.
  const YEAR = /(?<![\p{L}\p{N}.,/-])\d{4}(?![\p{N}])/gu;
  const BEFORE_YEAR =
    /(?<![\p{L}\p{N}])(?:(\p{L}{3,9})\.?[ \t\u00a0]{1,3}(\d{1,2})(?:st|nd|rd|th)?,?|(\d{1,2})(?:st|nd|rd|th)?[ \t\u00a0]{1,3}(?:of[ \t\u00a0]{1,3})?(\p{L}{3,9})\.?,?)[ \t\u00a0]{1,3}$/u;
  function namedDates(text: string): string[] {
    const dates: string[] = [];
    for (const match of text.matchAll(YEAR)) {
      const before = BEFORE_YEAR.exec(text.slice(Math.max(0, match.index - 24), match.index));
      if (before === null) continue;
      const [whole, monthFirst, dayAfter, dayFirst, monthAfter] = before;
      const month = monthOf((monthFirst ?? monthAfter) as string);
      const day = Number(dayAfter ?? dayFirst);
      const year = Number(match[0]);
      if (month === 0 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) continue;
      const start = match.index - whole.length;
      dates.push(`${start}:${match.index + 4}`);
    }
    return dates;
  }
  // The named dates forEachDate reads: a named date holds a letter; a numeric one (read by other patterns) none.
  function namedDatesRead(text: string): string[] {
    const found: string[] = [];
    forEachDate(text, ({ start, end }) => {
      if (/\p{L}/u.test(text.slice(start, end))) found.push(`${start}:${end}`);
    });
    return found;
  }
  const piece = fc.constantFrom(
    "Nov",
    "November",
    "Sept",
    "may",
    ".",
    ",",
    " ",
    "  ",
    "\t",
    "\u00a0",
    "10",
    "1",
    "123",
    "th",
    "of",
    "2018",
    "1,600",
    "a",
    "é",
    "-",
    "/",
  );

  it("skips no year the pattern reads as a named date", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const text = pieces.join("");
        expect(namedDatesRead(text)).toEqual(namedDates(text));
      }),
      { seed: 3434, numRuns: 3000 },
    );
  });

  it("reads a month of three letters with no longer word beside it", () => {
    // Dense in the shortest month names: a text whose only word of three letters or more is `Nov` or `May`.
    const short = fc.constantFrom("Nov", "May", "a", " ", ", ", ".", "10", "2018", "I-", "[s]");
    fc.assert(
      fc.property(fc.array(short, { maxLength: 10 }), (pieces) => {
        const text = pieces.join("");
        expect(namedDatesRead(text)).toEqual(namedDates(text));
      }),
      { seed: 3434, numRuns: 3000 },
    );
    const dates: string[] = [];
    forEachDate("Nov 10 2018, 1932", ({ date }) => dates.push(date));
    expect(dates).toEqual(["2018-11-10"]);
  });
});

describe("forEachYearStart: the year pattern as one scan", () => {
  // The pattern it replaces, kept here as the reference.
  const YEAR = /(?<![\p{L}\p{N}.,/-])\d{4}(?![\p{N}])/gu;
  const PARTS = [
    "1932",
    "19",
    "2",
    "0",
    "a",
    "Z",
    ".",
    ",",
    "/",
    "-",
    " ",
    "é",
    "٣",
    "²",
    "𝟘",
    "𝐀",
    "\ud835",
    "\udc00",
    "東",
  ];
  it("visits the starts the pattern matches, in order", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PARTS), { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        const starts: number[] = [];
        forEachYearStart(text, (start) => starts.push(start));
        expect(starts).toEqual([...text.matchAll(YEAR)].map((match) => match.index));
      }),
      { seed: 34, numRuns: 2000 },
    );
  });
});

describe("digitRunShapes: what the numeric date and short year range patterns need, read in the year scan", () => {
  // The two scans it replaces, kept here as references.
  const isDigit = (code: number): boolean => code >= 48 && code <= 57;
  const hasDigitSeparatorDigit = (text: string): boolean => {
    for (let at = 1; at + 1 < text.length; at++) {
      const code = text.charCodeAt(at);
      if ((code === 45 || code === 46 || code === 47) && isDigit(text.charCodeAt(at - 1)))
        if (isDigit(text.charCodeAt(at + 1))) return true;
    }
    return false;
  };
  const mayHoldShortYearRange = (text: string): boolean => {
    for (let at = 1; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code !== 45 && code !== 0x2013 && code !== 0x2014) continue;
      let before = at - 1;
      while (
        before > at - 3 &&
        before > 0 &&
        (text.charCodeAt(before) === 32 || text.charCodeAt(before) === 9)
      )
        before -= 1;
      if (isDigit(text.charCodeAt(before))) return true;
    }
    return false;
  };
  const NUMERIC_DATES = [
    /(?<![\p{L}\p{N}.,/-])(\d{4})([-./])(\d{1,2})\2(\d{1,2})(?![\p{N}]|[-./]\p{N})/u,
    /(?<![\p{L}\p{N}.,/-])(\d{1,2})([-./])(\d{1,2})\2(\d{4})(?![\p{N}]|[-./]\p{N})/u,
  ];
  const PARTS = ["2003", "19", "06", "7", "-", ".", "/", "–", "—", " ", "  ", "\t", ",", "a", "\n", "٣"];
  it("agrees with the two scans, and is set wherever the patterns match", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PARTS), { maxLength: 30 }), (parts) => {
        const text = parts.join("");
        const shapes = digitRunShapes(text);
        expect(shapes).toEqual({
          numericDate: hasDigitSeparatorDigit(text),
          shortYearRange: mayHoldShortYearRange(text),
        });
        expect(digitRunShapes(text, "patterns")).toEqual(shapes);
        if (NUMERIC_DATES.some((pattern) => pattern.test(text))) expect(shapes.numericDate).toBe(true);
        if ([...text.matchAll(SHORT_YEAR_RANGE)].length > 0) expect(shapes.shortYearRange).toBe(true);
      }),
      { seed: 3434, numRuns: 5000 },
    );
  });
});

describe("withoutEquivalentNumbers: each number asked once per value", () => {
  // The reading it replaces (a value string and a question per number, every pattern run), kept as the
  // reference.
  function reference(text: string, held: (value: string) => boolean, nearby: (value: string) => boolean) {
    const cuts: [number, number][] = [];
    let missing: string | null = null;
    forEachDate(text, ({ date, start, end }) => {
      if (held(date)) cuts.push([start, end]);
      else if (missing === null && (nearby(`y:${date.slice(0, 4)}`) || nearby(`m:${date.slice(5, 7)}`)))
        missing = text.slice(start, end);
    });
    forEachScaledNumber(text, (value, scaled, start, end) => {
      if (held(value)) cuts.push([start, end]);
      else if (missing === null && scaled) missing = text.slice(start, end);
    });
    for (const match of text.matchAll(SHORT_YEAR_RANGE)) {
      const [whole, century, start, end] = match as unknown as [string, string, string, string];
      if (Number(end) > Number(start) && held(`${century}${end}`))
        cuts.push([match.index + whole.length - 2, match.index + whole.length]);
    }
    const blanked = [...text];
    for (const [start, end] of cuts) for (let at = start; at < end; at++) blanked[at] = " ";
    return { text: cuts.length === 0 ? text : blanked.join(""), missing };
  }
  const PARTS = [
    "1932",
    "1,600",
    "17",
    "007",
    "2.50",
    "1990s",
    "3 million",
    "21K",
    "2018–19",
    "2003-06-11",
    "March 4, 2019",
    " ",
    ", ",
    "-",
    "I-",
    "a",
  ];
  const HELD = [
    "1932",
    "1600",
    "17",
    "7",
    "2.5",
    "1990s",
    "3000000",
    "21000",
    "2019",
    "2003-06-11",
    "2019-03-04",
    "y:2019",
    "m:06",
  ];
  it("blanks and misses what asking per number does", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PARTS), { maxLength: 16 }),
        fc.subarray(HELD),
        fc.subarray(HELD),
        (parts, heldValues, nearbyValues) => {
          const text = parts.join("");
          const held = new Set(heldValues);
          const nearby = new Set(nearbyValues);
          const got = withoutEquivalentNumbers(
            text,
            (value) => held.has(value),
            (value) => nearby.has(value),
          );
          expect(got).toEqual(
            reference(
              text,
              (value) => held.has(value),
              (value) => nearby.has(value),
            ),
          );
        },
      ),
      { seed: 3434, numRuns: 3000 },
    );
  });
});
