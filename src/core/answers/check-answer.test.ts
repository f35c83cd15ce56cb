import { describe, expect, it } from "vitest";
import type { StepCounter } from "../step-counter.js";
import { answerCheckSteps, checkAnswer } from "./check-answer.js";

const sources = [
  {
    id: "acme",
    text: "Acme Corp reported revenue of $5.2 million in 2023. The company was founded in Berlin in 1999.",
  },
  {
    id: "returns",
    text: "Widgets ship within two business days. Returns are accepted for 30 days after delivery.",
  },
];

const reasons = (answer: string, options = {}) =>
  checkAnswer(sources, answer, options).unsupported.map((entry) => entry.reason);

describe("checkAnswer: citation markers", () => {
  it.each([
    ["[id]", "Returns are accepted for 30 days [returns]."],
    ["[n]", "Returns are accepted for 30 days [2]."],
    ["[1, 3] list", "Returns are accepted for 30 days [2, returns]."],
    ["[1][2] run", "Returns are accepted for 30 days [1][2]."],
    ["[^1] footnote", "Returns are accepted for 30 days[^1].\n\n[^1]: returns"],
    ["【n†source】", "Returns are accepted for 30 days【2†source】."],
    ["【4:0†name】", "Returns are accepted for 30 days【4:0†returns】."],
    ["(source: id)", "Returns are accepted for 30 days (source: returns)."],
    ["after the full stop", "Returns are accepted for 30 days. [2]"],
  ])("%s names the source and is stripped from the claim", (_, answer) => {
    const result = checkAnswer(sources, answer);
    expect(result.unsupported).toEqual([]);
    expect(result.citations.map((citation) => [citation.claim, citation.source])).toContainEqual([
      "Returns are accepted for 30 days.",
      "returns",
    ]);
    expect(result.coverage).toBe(1);
  });

  it("refuses a marker that names no source as unknown_source, and says which with explain", () => {
    const result = checkAnswer(sources, "Returns are accepted for 30 days [7].", { explain: true });
    expect(result.unsupported).toEqual([
      {
        claim: "Returns are accepted for 30 days.",
        reason: "unknown_source",
        answerRange: [0, 37],
        detail: { marker: "[7]" },
      },
    ]);
  });

  it("does not read links, task boxes or bracketed prose as markers", () => {
    const answer =
      "- [x] [Returns](https://example.com/returns-policy) are accepted for 30 days [citation needed].";
    const result = checkAnswer(sources, answer);
    expect(result.unsupported).toEqual([]);
    expect(result.citations.map((citation) => citation.source)).toEqual(["returns"]);
  });

  it("attaches a mid-sentence marker to the clause before it", () => {
    const answer = "Acme was founded in Berlin [acme] and returns are accepted for 30 days [returns].";
    const result = checkAnswer(sources, answer);
    expect(result.unsupported).toEqual([]);
    expect(
      result.citations.map((citation) => [citation.claim, citation.source, citation.answerRange]),
    ).toEqual([
      ["Acme was founded in Berlin", "acme", [0, 34]],
      ["and returns are accepted for 30 days.", "returns", [34, 81]],
    ]);
  });

  it("starts a clause after a marker at its first word, without the punctuation before it", () => {
    const lines = [
      { id: "a", text: "The Harlow line opened in 1927." },
      { id: "b", text: "The Harlow depot stands in Brisk." },
    ];
    const cited = "The Harlow line opened in 1927 [a], and its depot stands in Brisk [b].";
    const result = checkAnswer(lines, cited);
    expect(result.unsupported).toEqual([]);
    expect(result.citations.map((citation) => [citation.claim, citation.answerRange])).toEqual([
      ["The Harlow line opened in 1927", [0, 36]],
      ["and its depot stands in Brisk.", [36, cited.length]],
    ]);
    // A clause with no marker: its range slices the answer to its claim.
    const uncited = "The Harlow line opened in 1927 [a]; its depot stands in Brisk.";
    const last = checkAnswer(lines, uncited).citations.at(-1);
    expect(last?.claim).toBe("its depot stands in Brisk.");
    expect(uncited.slice(...(last?.answerRange ?? [0, 0]))).toBe(last?.claim);
  });

  it("lets a mid-sentence marker cover only the words since the sentence's start or the previous marker", () => {
    // The words after the last marker are a clause of their own, with no marker: looked for in every source.
    const kept = checkAnswer(
      sources,
      "Acme was founded in Berlin [acme], and returns are accepted for 30 days.",
    );
    expect(kept.unsupported).toEqual([]);
    expect(kept.citations.map((citation) => [citation.claim, citation.source])).toEqual([
      ["Acme was founded in Berlin", "acme"],
      ["and returns are accepted for 30 days.", "returns"],
    ]);
    // Before, the whole sentence was the marker's: 3 of its 6 words in `acme` kept a clause no source holds.
    expect(reasons("Acme was founded in Berlin [acme], and it now sells frozen yogurt.")).toEqual([
      "no_support",
    ]);
    // Words that state nothing after the last marker join its clause.
    const one = checkAnswer(sources, "Acme was founded in Berlin [acme] too.");
    expect(one.citations.map((citation) => citation.claim)).toEqual(["Acme was founded in Berlin too."]);
  });

  it("drops the sentence when one clause cites the wrong source", () => {
    const answer = "Acme was founded in Berlin [returns] and returns are accepted for 30 days [returns].";
    const result = checkAnswer(sources, answer);
    expect(result.unsupported.map((entry) => [entry.reason, entry.detail])).toEqual([
      ["wrong_source", { foundIn: ["acme"] }],
    ]);
  });
});

describe("checkAnswer: verdicts", () => {
  it("keeps a supported sentence with its source span, support and answer range", () => {
    const answer = "Intro line:\n\n- Widgets ship within two business days [returns].";
    const result = checkAnswer(sources, answer);
    const quote = "Widgets ship within two business days.";
    expect(result.citations).toEqual([
      {
        claim: "Widgets ship within two business days.",
        quote,
        source: "returns",
        range: [0, quote.length],
        support: 1,
        answerRange: [answer.indexOf("Widgets"), answer.length],
      },
    ]);
  });

  it("finds support in all sources when a sentence cites none", () => {
    const result = checkAnswer(sources, "Acme reported revenue of $5.2 million in 2023.");
    expect(result.citations.map((citation) => citation.source)).toEqual(["acme"]);
  });

  it("drops a sentence with too little support as no_support, listing the missing words with explain", () => {
    const result = checkAnswer(sources, "Shipping is free on orders over fifty dollars [returns].", {
      explain: true,
    });
    expect(result.unsupported[0]?.reason).toBe("no_support");
    expect(result.unsupported[0]?.detail).toEqual({ words: ["free", "orders", "fifty", "dollars"] });
  });

  it("does not look up words that count or tell apart without saying what (several, different, main)", () => {
    // Before: widget and ship of six counted words (0.33, no_support); now of three.
    const result = checkAnswer(sources, "Various specific widgets of several different colours ship.", {
      explain: true,
    });
    expect(result.unsupported).toEqual([]);
    expect(result.citations[0]?.support).toBeCloseTo(2 / 3, 4);
    // The words a drop lists are the ones that say what: not `Several`, `different` or `main`.
    const dropped = checkAnswer(sources, "Several different main widgets are blue and green.", {
      explain: true,
    });
    expect(dropped.unsupported[0]?.detail).toEqual({ words: ["blue", "green"] });
  });

  describe("a sentence about the sources themselves", () => {
    it.each([
      "The passage discusses two topics and their details.",
      "However, the article does not give the shipping costs.",
      "It is worth noting that the provided text covers policies of two kinds.",
    ])("needs no support for its words: %s", (answer) => {
      const result = checkAnswer(sources, answer);
      expect(result.unsupported).toEqual([]);
      expect(result.coverage).toBe(1);
    });

    it("still has its names, numbers and quotations checked", () => {
      expect(reasons("The passage describes a store in Munich.")).toEqual(["entity_not_found"]);
      expect(reasons("The passage lists 7 kinds of refunds.")).toEqual(["number_not_found"]);
      expect(reasons("The passage lists 30 kinds of refunds.")).toEqual([]);
      expect(reasons('The passage calls them "free returns".')).toEqual(["quote_not_found"]);
    });

    it("checks a proposition it reports as a fact", () => {
      expect(reasons("The article states that widgets are painted blue and green.")).toEqual(["no_support"]);
      expect(reasons("The article says widgets are painted blue and green.")).toEqual(["no_support"]);
      expect(reasons("According to the article, widgets are painted blue and green.")).toEqual([
        "no_support",
      ]);
    });

    it("is one whose subject is the source, not one that names it later", () => {
      expect(reasons("Blue and green paint covers widgets in the passage.")).toEqual(["no_support"]);
    });
  });

  it("drops a number the supporting source does not hold, by default", () => {
    expect(reasons("Acme reported revenue of $7.1 million in 2023 [acme].")).toEqual(["number_not_found"]);
    expect(reasons("Acme reported revenue of $7.1 million in 2023 [acme].", { checkNumbers: false })).toEqual(
      [],
    );
  });

  describe("an answer of only a number or code", () => {
    const road = [
      { id: "road", text: "The road opened in 1927. It is signed as I-84 and carries 614,302 cars a year." },
      { id: "poll", text: "About 23% of voters, more than 2,400 people, answered." },
    ];

    it.each([
      ["1927", "road", "The road opened in 1927."],
      ["I-84", "road", "It is signed as I-84 and carries 614,302 cars a year."],
      ["614302", "road", "It is signed as I-84 and carries 614,302 cars a year."],
      ["23%", "poll", "About 23% of voters, more than 2,400 people, answered."],
      ["More than 2,400.", "poll", "About 23% of voters, more than 2,400 people, answered."],
      ["1927 [road]", "road", "The road opened in 1927."],
    ])("%s is supported by the source sentence holding its numbers", (answer, id, quote) => {
      const result = checkAnswer(road, answer);
      expect(result.unsupported).toEqual([]);
      expect(result.citations).toHaveLength(1);
      const citation = result.citations[0];
      expect([citation?.source, citation?.quote, citation?.support]).toEqual([id, quote, 1]);
      const source = road.find((candidate) => candidate.id === citation?.source);
      expect(source?.text.slice(...(citation?.range ?? [0, 0]))).toBe(quote);
    });

    it("drops a number no source holds as number_not_found, saying which with explain", () => {
      const result = checkAnswer(road, "1945", { explain: true });
      expect(result.unsupported.map((entry) => [entry.reason, entry.detail])).toEqual([
        ["number_not_found", { number: "1945", checked: "source" }],
      ]);

      expect(checkAnswer(road, "1927 and 1999").unsupported.map((entry) => entry.reason)).toEqual([
        "number_not_found",
      ]);
    });

    it("drops a code no source writes as entity_not_found, though its number is there", () => {
      const explained = (answer: string) =>
        checkAnswer(road, answer, { explain: true }).unsupported.map((entry) => [entry.reason, entry.detail]);
      expect(explained("US-84")).toEqual([["entity_not_found", { entity: "US-84" }]]);
      expect(explained("I-95")).toEqual([["entity_not_found", { entity: "I-95" }]]);
      expect(explained("I-84")).toEqual([]);
    });

    it("drops a number its cited source lacks as wrong_source when another source holds it", () => {
      const result = checkAnswer(road, "23% [road]");
      expect(result.unsupported.map((entry) => [entry.reason, entry.detail])).toEqual([
        ["wrong_source", { foundIn: ["poll"] }],
      ]);
    });

    it("drops it as no_support when numbers are not checked", () => {
      expect(
        checkAnswer(road, "1945", { checkNumbers: false }).unsupported.map((entry) => entry.reason),
      ).toEqual(["no_support"]);
    });
  });

  it("matches a small number in digits with its spelled form", () => {
    expect(reasons("Widgets ship within 2 business days [returns].")).toEqual([]);
  });

  it("drops a name no source holds as entity_not_found", () => {
    const result = checkAnswer(sources, "The company was founded in Munich in 1999 [acme].", {
      explain: true,
    });
    expect(result.unsupported.map((entry) => [entry.reason, entry.detail])).toEqual([
      ["entity_not_found", { entity: "Munich" }],
    ]);
  });

  it("reads a year range written short as holding its last year", () => {
    // Invented text: a club history written with ranges as a wiki infobox does.
    const club = [{ id: "a", text: "She coached the Harbour Town rowing eight (1991 -- 2000; 2014 -- 16)." }];
    expect(
      checkAnswer(club, "She coached the Harbour Town rowing eight from 2014 to 2016 [a].").unsupported,
    ).toEqual([]);
    expect(
      checkAnswer(club, "She coached the Harbour Town rowing eight from 2014 to 2017 [a].").unsupported.map(
        (entry) => entry.reason,
      ),
    ).toEqual(["number_not_found"]);
  });

  it("checks a scoreline when the sources write scorelines", () => {
    const report = [{ id: "m", text: "Harbour Town beat the visitors 3-1 on Saturday after a late goal." }];
    expect(
      checkAnswer(report, "Harbour Town won 4-1 on Saturday [m].").unsupported.map((entry) => entry.reason),
    ).toEqual(["number_not_found"]);
    expect(checkAnswer(report, "Harbour Town won 3-1 on Saturday [m].").unsupported).toEqual([]);
  });

  it("does not look up a scoreline the sources never write, but still checks a range written low to high", () => {
    const match = [
      {
        id: "m",
        text: "Harbour Town went ahead through Okafor, Lindqvist added a second, and the visitors replied once before the break. Harbour Town kept the lead and won. Fans queued for 3 to 4 hours.",
      },
    ];
    expect(
      checkAnswer(match, "Harbour Town won 2-1 after Okafor and Lindqvist scored [m].").unsupported,
    ).toEqual([]);
    expect(
      checkAnswer(match, "Fans queued for 5-6 hours before Harbour Town won [m].").unsupported.map(
        (entry) => entry.reason,
      ),
    ).toEqual(["number_not_found"]);
  });

  it("checks a quotation against the cited source, strict or lenient", () => {
    expect(reasons('The policy says "returns are accepted for 30 days" [returns].')).toEqual([
      "quote_not_found",
    ]);
    expect(
      reasons('The policy says "returns are accepted for 30 days" [returns].', { mode: "lenient" }),
    ).toEqual([]);
    expect(reasons('The policy says "Returns are accepted for 30 days" [returns].')).toEqual([]);
    expect(reasons("> Returns are accepted for 60 days [returns].")).toEqual(["quote_not_found"]);
  });

  it("finds a strict quotation whose only difference is spacing next to punctuation, not one of other case", () => {
    const tokenised = [
      { id: "t", text: 'The ferry " Blue Heron ( II ) " sails at noon , weather permitting .' },
    ];
    const check = (answer: string) => checkAnswer(tokenised, answer).unsupported.map((entry) => entry.reason);
    expect(check('The ferry "Blue Heron (II)" sails at noon [t].')).toEqual([]);
    expect(check('The ferry "Blue Heron (ii)" sails at noon [t].')).toEqual(["quote_not_found"]);
    expect(check('The ferry "Blue Heron: II" sails at noon [t].')).toEqual(["quote_not_found"]);
  });

  it("does not count the question's words as new facts", () => {
    const sources2 = [{ id: "a", text: "The Zephyr line launched in 2019." }];
    const answer = "The Zephyr line of Acme launched in 2019 [a].";
    expect(checkAnswer(sources2, answer).unsupported.map((entry) => entry.reason)).toEqual([
      "entity_not_found",
    ]);
    const withQuestion = checkAnswer(sources2, answer, {
      question: ["When did Acme launch the Zephyr line?"],
    });
    expect(withQuestion.unsupported).toEqual([]);
  });

  it("checks a cited claim made only of the question's words where it points", () => {
    const games = [
      { id: "a", text: "The Broncos defeated the Steelers in the divisional round." },
      { id: "b", text: "Peyton Manning is the oldest quarterback to play in the final." },
    ];
    const question = ["Who won the divisional round between the Broncos and the Steelers?"];
    const right = checkAnswer(
      games,
      "The divisional round between the Broncos and the Steelers: Broncos [a].",
      {
        question,
      },
    );
    expect(right.unsupported).toEqual([]);
    expect(right.citations.map((citation) => citation.source)).toEqual(["a"]);
    const moved = checkAnswer(
      games,
      "The divisional round between the Broncos and the Steelers: Broncos [b].",
      {
        question,
      },
    );
    expect(moved.unsupported.map((entry) => [entry.reason, entry.detail])).toEqual([
      ["wrong_source", { foundIn: ["a"] }],
    ]);
  });

  it("skips headings, lead-in lines and sentences that state nothing, and removes dropped sentences from text", () => {
    const answer =
      "# Returns\n\nHere is what I found:\n\n- Returns are accepted for 30 days [returns].\n- Returns cost $9 [returns].\n\nHope this helps!";
    const result = checkAnswer(sources, answer);
    expect(result.unsupported.map((entry) => entry.claim)).toEqual(["Returns cost $9."]);
    expect(result.coverage).toBe(0.5);
    expect(result.text).toBe(
      "# Returns\n\nHere is what I found:\n\n- Returns are accepted for 30 days [returns].\n\nHope this helps!",
    );
  });
});

describe("checkAnswer: a source's title", () => {
  // Invented text: the subject is named only in the title.
  const title = (first: string) => [
    { id: "t", text: `${first}\n\nThe network has 3 lines and 38 stops. Trams run every 6 minutes.` },
  ];

  it.each([
    ["a first line followed by a blank line", "Harbourside Tramway"],
    ["a markdown heading", "# Harbourside Tramway"],
  ])("counts as part of each sentence: %s", (_, first) => {
    const result = checkAnswer(title(first), "The Harbourside Tramway has 38 stops [t].");
    expect(result.unsupported).toEqual([]);
    expect(result.citations.map((citation) => [citation.quote, citation.support])).toEqual([
      ["The network has 3 lines and 38 stops.", 1],
    ]);
  });

  it("is not a first sentence of prose", () => {
    const prose = [
      {
        id: "p",
        text: "Harbourside is a tramway.\n\nIt opened in 1961. Its depot is by the river. The network has 3 lines and 38 stops.",
      },
    ];
    // Its words are found in it, pooled with the sentence of the stops: it is cited as a span of its own.
    const result = checkAnswer(prose, "The Harbourside Tramway has 38 stops [p].");
    expect(result.citations.map((citation) => citation.quote)).toEqual([
      "Harbourside is a tramway.",
      "The network has 3 lines and 38 stops.",
    ]);
  });
});

describe("checkAnswer: units and abbreviations written another way than the source's", () => {
  // Invented text.
  const reserve = [
    {
      id: "r",
      text: "The Lindqvist reserve covers 12 square kilometres and opened on 3 October 2021. Its weather station logs at 4 GHz.",
    },
  ];
  const check = (answer: string) =>
    checkAnswer(reserve, answer, { explain: true }).unsupported.map((entry) => [entry.reason, entry.detail]);

  it.each([
    ["a unit symbol where the source spells the unit out", "The Lindqvist reserve covers 12 km² [r]."],
    ["a unit symbol the source writes", "Its weather station logs at 4 GHz [r]."],
    ["a month's abbreviation where the source writes it out", "The reserve opened on 3 Oct 2021 [r]."],
    ["an abbreviation with its full stop", "The reserve opened on Oct. 3, 2021 [r]."],
  ])("%s is known", (_, answer) => {
    expect(check(answer)).toEqual([]);
  });

  it("still catches a month or a unit the source does not hold", () => {
    expect(check("The reserve opened on 3 Nov 2021 [r].")).toEqual([["entity_not_found", { entity: "Nov" }]]);
    expect(check("Its weather station logs at 4 MHz [r].")).toEqual([
      ["entity_not_found", { entity: "MHz" }],
    ]);
    expect(check("The Lindqvist reserve covers 12 mi² [r].")).toEqual([
      ["entity_not_found", { entity: "mi²" }],
    ]);
  });

  it("knows a quarter written Q3 where the source writes the third quarter", () => {
    const quarter = [{ id: "q", text: "In the third quarter, Larkspur opened 4 stores." }];
    expect(checkAnswer(quarter, "In Q3, Larkspur opened 4 stores [q].").unsupported).toEqual([]);
    expect(
      checkAnswer(quarter, "In Q2, Larkspur opened 4 stores [q].").unsupported.map((entry) => entry.reason),
    ).toEqual(["entity_not_found"]);
  });

  it("reads a unit's symbol and spellings as one word, both ways, and names another unit", () => {
    const trail = (text: string, answer: string) => {
      const result = checkAnswer([{ id: "t", text }], answer);
      return [result.unsupported.map((entry) => entry.reason), result.partial.map((entry) => entry.term)];
    };
    expect(
      trail("The Ostrand trail is 4.2 kilometres long.", "The Ostrand trail is 4.2 km long [t]."),
    ).toEqual([[], []]);
    expect(
      trail("The Ostrand trail is 4.2 km long.", "The Ostrand trail is 4.2 kilometers long [t]."),
    ).toEqual([[], []]);
    expect(trail("The Ostrand trail is 4.2 km long.", "The Ostrand trail is 4.2 miles long [t].")).toEqual([
      [],
      ["miles"],
    ]);
  });

  it("names no partial term for a quarter, month or unit that its span writes another way", () => {
    const partly = (text: string, answer: string) => {
      const result = checkAnswer([{ id: "s", text }], answer);
      return [result.unsupported.map((entry) => entry.reason), result.partial.map((entry) => entry.term)];
    };
    // The quarter in the page's title, which every sentence of the page holds.
    const report = "Tidewater Mills: third quarter 2025\n\nGross margin rose to 7.4%.";
    expect(partly(report, "In Q3 2025, Tidewater's gross margin rose to 7.4% [s].")).toEqual([[], []]);
    expect(partly("Pier repairs finish in October.", "Pier repairs finish in Oct [s].")).toEqual([[], []]);
    expect(
      partly(
        "The Lindqvist reserve covers 12 square kilometres.",
        "The Lindqvist reserve covers 12 km² [s].",
      ),
    ).toEqual([[], []]);
    // The other form in another sentence of the source than the span is still not the span's.
    const apart = "Sales were flat in the third quarter. Gross margin rose to 7.4% at Tidewater Mills.";
    expect(partly(apart, "Tidewater's gross margin rose to 7.4% in Q3 [s].")).toEqual([[], ["Q3"]]);
  });

  it("knows a month written out where the source abbreviates it", () => {
    const notice = [{ id: "n", text: "The ferry timetable changes on 3 Oct each year." }];
    expect(
      checkAnswer(notice, "The ferry timetable changes on 3 October each year [n].").unsupported,
    ).toEqual([]);
  });
});

describe("checkAnswer: a quotation that differs only in case", () => {
  const explained = (answer: string, mode?: "strict" | "lenient") =>
    checkAnswer(sources, answer, { explain: true, ...(mode === undefined ? {} : { mode }) }).unsupported.map(
      (entry) => [entry.reason, entry.detail],
    );

  it("says so in detail in strict mode: the first letter, or other letters", () => {
    expect(explained('The policy says "returns are accepted for 30 days" [returns].')).toEqual([
      [
        "quote_not_found",
        {
          quotation: "returns are accepted for 30 days",
          differsOnlyIn: "first_letter_case",
          sourceText: "Returns are accepted for 30 days",
        },
      ],
    ]);
    expect(explained('The policy says "Returns Are Accepted for 30 days" [returns].')).toEqual([
      [
        "quote_not_found",
        {
          quotation: "Returns Are Accepted for 30 days",
          differsOnlyIn: "case",
          sourceText: "Returns are accepted for 30 days",
        },
      ],
    ]);
  });

  it("says nothing of case when other characters differ, and lenient mode keeps a quotation of other case", () => {
    expect(explained('The policy says "returns are accepted for 31 days" [returns].')).toEqual([
      ["quote_not_found", { quotation: "returns are accepted for 31 days" }],
    ]);
    expect(explained('The policy says "returns are accepted for 30 days" [returns].', "lenient")).toEqual([]);
  });
});

describe("checkAnswer: a quotation with words left out", () => {
  // Invented text.
  const review = [
    {
      id: "v",
      text: "The critic found the staging bold, spare, and, against all odds, moving. The lighting was dim. The seats were cramped.",
    },
  ];
  const check = (answer: string) => checkAnswer(review, answer).unsupported.map((entry) => entry.reason);

  it.each([
    ['The critic called it "bold, spare, and [...] moving" [v].'],
    ['The critic called it "bold, spare, and […] moving" [v].'],
    ['The critic called it "bold, spare, and ... moving" [v].'],
    ['The critic called it "bold, spare, and … moving" [v].'],
  ])("finds each piece in order in one passage: %s", (answer) => {
    expect(check(answer)).toEqual([]);
  });

  it.each([
    ["a piece the source lacks", 'The critic called it "bold, spare, and [...] thrilling" [v].'],
    ["pieces out of order", 'The critic called it "moving [...] bold, spare" [v].'],
  ])("still fails %s", (_, answer) => {
    expect(check(answer)).toEqual(["quote_not_found"]);
  });

  it("still fails pieces gathered from far apart", () => {
    const far = [
      { id: "v", text: `The staging was bold. ${"The bar sold wine. ".repeat(20)}The seats were cramped.` },
    ];
    expect(
      checkAnswer(far, 'The critic called the staging "bold [...] cramped" [v].').unsupported,
    ).toMatchObject([{ reason: "quote_not_found" }]);
    const near = [{ id: "v", text: "The staging was bold. The seats were cramped." }];
    expect(checkAnswer(near, 'The critic called the staging "bold [...] cramped" [v].').unsupported).toEqual(
      [],
    );
  });
});

describe("checkAnswer: markdown and chat framing are not claims", () => {
  it.each([
    ["a bold lead-in", "- **Time limit.** Returns are accepted for 30 days [returns]."],
    ["a bold heading line", "**Returns in short**\n\nReturns are accepted for 30 days [returns]."],
    ["an opening line of chat framing", "Here's an overview.\n\nReturns are accepted for 30 days [returns]."],
    ["a sign-off", "Returns are accepted for 30 days [returns].\n\nLet me know if you need anything else!"],
    [
      "an offer to the reader",
      "Returns are accepted for 30 days [returns]. Would you like a label template?",
    ],
    ["praise for the question", "Great question! Returns are accepted for 30 days [returns]."],
  ])("%s is kept and not counted", (_, answer) => {
    const result = checkAnswer(sources, answer);
    expect(result.unsupported).toEqual([]);
    expect(result.coverage).toBe(1);
    expect(result.citations).toHaveLength(1);
  });

  it("still checks a sentence that opens like framing but states a number, or cites a source", () => {
    expect(reasons("Sure, returns are accepted for 60 days.")).toEqual(["number_not_found"]);
    expect(reasons("Here is the rule: shipping is free on all orders [returns].")).toEqual(["no_support"]);
  });

  it("does not look for connecting phrases in the sources", () => {
    // Before: `additionally`, `worth` and `noting` were words to support, and the sentence fell to 2 of 6.
    expect(reasons("Additionally, it's worth noting that the widgets ship quickly [returns].")).toEqual([]);
    expect(reasons("Furthermore, widgets ship quickly, interestingly [returns].")).toEqual([]);
    expect(reasons("Moreover, widgets are painted blue and green [returns].")).toEqual(["no_support"]);
  });

  it("keeps the cleaned text valid markdown: an emphasis whose other half was cut goes too", () => {
    const text = (answer: string) => checkAnswer(sources, answer).text;
    expect(
      text("Returns are accepted for 30 days [returns]. **Shipping is free on all orders [returns].**"),
    ).toBe("Returns are accepted for 30 days [returns].");
    expect(
      text("**Returns are accepted for 30 days [returns]. Shipping is free on all orders [returns].**"),
    ).toBe("**Returns are accepted for 30 days [returns].**");
    expect(
      text("*Shipping is free on all orders [returns].* Returns are accepted for 30 days [returns]."),
    ).toBe(" Returns are accepted for 30 days [returns].");
    // A bold lead-in goes with the sentence it introduced; snake_case and `two * two` are not emphasis.
    expect(
      text("- **Shipping.** Shipping is free on all orders [returns].\n- Returns take 30 days [returns]."),
    ).toBe("- Returns take 30 days [returns].");
    expect(
      text(
        "Widgets ship within two business days (snake_case ids, two * two rows) [returns]. Painting costs extra [returns].",
      ),
    ).toBe("Widgets ship within two business days (snake_case ids, two * two rows) [returns].");
  });
});

// The invariants over generated answers (offsets, verdicts, invariance, direction, determinism with prepared
// sources reused) are in answer-properties.test.ts.

describe("checkAnswer: maxBestSpanChars", () => {
  // One source sentence of 993 characters, and sentences whose quotation it lacks: each is dropped with the
  // whole sentence as its best span.
  const long = [{ id: "s", text: `${"Alpha beta gamma delta ".repeat(43)}end.` }];
  const answer = 'It says "alpha beta gammma" [s]. '.repeat(5);

  it("lists the entries past the budget without their best span, their verdicts unchanged", () => {
    const unbounded = checkAnswer(long, answer);
    const bounded = checkAnswer(long, answer, { maxBestSpanChars: 2_500 });
    expect(unbounded.unsupported.map((entry) => entry.quote?.length)).toEqual([993, 993, 993, 993, 993]);
    // Two spans fit in 2,500 characters; the third would pass it, so it and every later entry go without.
    expect(bounded.unsupported.map((entry) => entry.quote?.length)).toEqual([
      993,
      993,
      undefined,
      undefined,
      undefined,
    ]);
    expect(bounded.unsupported[2]).toEqual({
      claim: 'It says "alpha beta gammma".',
      reason: "quote_not_found",
      answerRange: [66, 98],
    });
    expect(bounded.unsupported.slice(0, 2)).toEqual(unbounded.unsupported.slice(0, 2));
    expect(
      bounded.unsupported.map(({ claim, reason, answerRange }) => ({ claim, reason, answerRange })),
    ).toEqual(
      unbounded.unsupported.map(({ claim, reason, answerRange }) => ({ claim, reason, answerRange })),
    );
    expect({ ...bounded, unsupported: [] }).toEqual({ ...unbounded, unsupported: [] });
  });
});

describe("answerCheckSteps: slices", () => {
  // The yields of checking `Alpha beta gamma [a].` against one long source `a`, and the result.
  const yieldsAgainst = (text: string) => {
    const steps = answerCheckSteps([{ id: "a", text }], "Alpha beta gamma [a].", {}, 1_000);
    let yields = 0;
    let step = steps.next();
    for (; step.done !== true; step = steps.next()) yields++;
    return { yields, result: step.value };
  };

  it("yields while it reads long sources, not only between claims", () => {
    // 200,000 characters of sources and one claim: with a budget of 1,000 characters of claims (20,000 of
    // sources) a slice, the sources are read in about ten slices.
    const { yields, result } = yieldsAgainst("Alpha beta gamma delta. ".repeat(200_000 / 24));
    expect(yields).toBeGreaterThanOrEqual(9);
    expect(result).toMatchObject({ unsupported: [], coverage: 1 });
  });

  it("yields while it splits a long source into sentences, not only between the sentences it reads", () => {
    // 200,000 characters of line breaks before one sentence: no sentence to read for most of the source, so
    // only the splitting can yield; with 20,000 characters of sources a slice, about ten times.
    const { yields, result } = yieldsAgainst(`${"\n".repeat(200_000)}Alpha beta gamma delta.`);
    expect(yields).toBeGreaterThanOrEqual(9);
    expect(result).toMatchObject({ unsupported: [], coverage: 1 });
  });
});

describe("answerCheckSteps: the answer's acronyms read by slices", () => {
  it("counts no slice after the first near the answer's length: the acronym pass pauses by pieces", () => {
    // 220,000 characters of short claims no source supports: cheap to judge, so the longest slice after the
    // splitting is the answer-wide pass that reads the acronyms the answer defines. A slice is 1,000 steps.
    const answer = "Omega psi. ".repeat(20_000);
    const counter: StepCounter = { steps: 0 };
    const steps = answerCheckSteps([{ id: "a", text: "Alpha beta gamma." }], answer, {}, 100, counter);
    let before = 0;
    const slices: number[] = [];
    let step = steps.next();
    for (; step.done !== true; step = steps.next()) {
      slices.push(counter.steps - before);
      before = counter.steps;
    }
    // The first slice holds the marker pass's count, which it makes at once; every later one stays far below
    // the answer's length (a pass over the whole answer at once counted it in a single slice).
    expect(Math.max(...slices.slice(1))).toBeLessThan(answer.length / 10);
    expect(step.value).toMatchObject({ coverage: 0 });
  });
});

describe("checkAnswer: text without the dropped claims", () => {
  it("removes a dropped claim's marker that stands on a later line, not only its sentence", () => {
    const sources = [{ id: "notes", text: "The harbour opened in 1908. It handles 40 ships a day." }];
    const answer = "The harbour opened in 1911.\n[notes]\nIt handles 40 ships a day [notes].";
    const result = checkAnswer(sources, answer);
    expect(result.unsupported.map((entry) => entry.reason)).toEqual(["number_not_found"]);
    expect(result.text).toBe("It handles 40 ships a day [notes].");
  });
});

describe("answerCheckSteps: slices by steps, splitting included", () => {
  // Answers whose splitting makes no claim for a long stretch: the check must still yield while it splits.
  it.each([
    ["line breaks", "\n".repeat(200_000)],
    ["code fences", "```\nx\n```\n".repeat(20_000)],
    ["CJK full stops only", "。".repeat(200_000)],
    ["headings", "# A\n".repeat(50_000)],
    ["footnote definitions", "[^1]: a\n".repeat(25_000)],
  ])("yields while it splits %s", (_, filler) => {
    const steps = answerCheckSteps([{ id: "a", text: "Alpha beta." }], `${filler}\nAlpha [a].`, {}, 1_000);
    let yields = 0;
    let step = steps.next();
    for (; step.done !== true; step = steps.next()) yields++;
    // A slice is 10,000 steps of splitting; 200,000 characters take more than 20 slices.
    expect(yields).toBeGreaterThanOrEqual(20);
    expect(step.value).toMatchObject({ unsupported: [], coverage: 1 });
  });
});

describe("answerCheckSteps: the cap before the work", () => {
  it("stops reading claims at the first past maxClaims: a refused answer costs the cap's work, not its own", () => {
    const answer = "A.\n".repeat(100_000);
    const counter: StepCounter = { steps: 0 };
    const steps = answerCheckSteps([{ id: "a", text: "Alpha." }], answer, { maxClaims: 100 }, 1_000, counter);
    let step = steps.next();
    while (step.done !== true) step = steps.next();
    expect(step.value).toEqual({ tooManyClaims: 101, counted: "claims and clauses" });
    // The marker pass (three reads) and the masking (two) read the whole answer; the splitting, which reads
    // each character a dozen times, stops after 101 claims.
    expect(counter.steps).toBeLessThan(6 * answer.length);
  });

  it("counts markers in a pass that stops past twice the cap", () => {
    const answer = `Alpha ${"[a]".repeat(100_000)}.`;
    const steps = answerCheckSteps([{ id: "a", text: "Alpha." }], answer, { maxClaims: 100 }, 1_000);
    let step = steps.next();
    while (step.done !== true) step = steps.next();
    expect(step.value).toEqual({ tooManyClaims: 201, counted: "markers" });
  });
});

describe("checkAnswer: linear in answer plus sources", () => {
  // Adversarial shapes: every word frequent in the sources, many markers in one sentence, one long line, a
  // table row with a wide header, and many quotations.
  const families: [string, (size: number) => { sources: { id: string; text: string }[]; answer: string }][] =
    [
      [
        "every word frequent",
        (size) => ({
          sources: [{ id: "a", text: "alpha beta gamma delta. ".repeat(size / 24) }],
          answer: "Alpha beta gamma delta epsilon [a]. ".repeat(size / 36),
        }),
      ],
      [
        "markers everywhere",
        (size) => ({
          sources: [{ id: "a", text: "alpha beta. ".repeat(size / 12) }],
          answer: `Alpha ${"[a] beta ".repeat(size / 9)}.`,
        }),
      ],
      [
        "many sources, all cited",
        (size) => ({
          sources: Array.from({ length: size / 100 }, (_, index) => ({
            id: `s${index}`,
            text: `Fact number ${index} holds here. `.repeat(3),
          })),
          answer: Array.from(
            { length: size / 100 },
            (_, index) => `Fact number ${index} holds [s${index}][${index + 1}].`,
          ).join(" "),
        }),
      ],
      [
        "answers of numbers only, every number frequent",
        (size) => ({
          sources: [{ id: "a", text: "In 1927 it was 23% of 2,400. ".repeat(size / 29) }],
          answer: "1927, 23% and 2,400 [a]. 1945. ".repeat(size / 32),
        }),
      ],
      [
        "sentences about the sources with numbers, many sources",
        (size) => ({
          sources: Array.from({ length: size / 100 }, (_, index) => ({
            id: `s${index}`,
            text: `Fact number ${index} holds here. `.repeat(3),
          })),
          answer: 'The passage lists 0.5 things. The passage calls them "odd". '.repeat(size / 62),
        }),
      ],
      [
        "quotations spaced apart from their punctuation in the source",
        (size) => ({
          sources: [{ id: "a", text: `alpha (${" ".repeat(size / 2)}beta) gamma.` }],
          answer: 'The text says "alpha (beta) gamma" [a]. '.repeat(size / 40),
        }),
      ],
      [
        "quotations",
        (size) => ({
          sources: [{ id: "a", text: "alpha beta gamma ".repeat(size / 17) }],
          answer: 'The text says "alpha beta gamma alpha beta gammb" [a]. '.repeat(size / 56),
        }),
      ],
      [
        "denials in every sentence, every word frequent",
        (size) => ({
          sources: [{ id: "a", text: "Never wash the alpha shelf. Do not wash it. ".repeat(size / 44) }],
          answer: "Wash the alpha shelf [a]. ".repeat(size / 26),
        }),
      ],
      [
        "full dates and days without a year everywhere, headings and datelines",
        (size) => ({
          sources: [
            {
              id: "a",
              text: `# Alpha on May 7\n\nPosted May 10, 2018\n${"Alpha met beta on May 7 and on 2018-05-08. ".repeat(size / 43)}`,
            },
          ],
          answer: "Alpha met beta on May 7, 2018, 8 May 2018 and 2018–19 [a]. ".repeat(size / 60),
        }),
      ],
      [
        "quotations with elisions, every piece frequent",
        (size) => ({
          sources: [{ id: "a", text: "alpha beta gamma ".repeat(size / 17) }],
          answer: 'The text says "alpha [...] beta … gamma ... alpha" [a]. '.repeat(size / 56),
        }),
      ],
      [
        "moved markers, every source holding the words but not the name",
        (size) => ({
          sources: Array.from({ length: size / 100 }, (_, index) => ({
            id: `s${index}`,
            text: `The Wren${index} phone starts at $799 with a glass back. `,
          })),
          answer: Array.from(
            { length: size / 100 },
            (_, index) => `The Wren${(index + 1) % (size / 100)} phone starts at $799 [s${index}].`,
          ).join(" "),
        }),
      ],
      // The splitting's own worst cases (the counter counts every stage: markers, masking, sentences, lines,
      // clauses, the support search, the number and quotation checks).
      ...(
        [
          ["no spaces", (size) => `A.${"a".repeat(size)} [a]`],
          ["a terminator run", (size) => `Alpha${"!".repeat(size)} [a]`],
          ["abbreviations", (size) => "Alpha U.S. e.g. Dr. [a] ".repeat(size / 24)],
          ["tiny sentences", (size) => "A.\n".repeat(size / 3)],
          ["CJK terminators", (size) => `アルファ${"。".repeat(size)}`],
          ["fences", (size) => "```\nAlpha [a].\n".repeat(size / 15)],
        ] as [string, (size: number) => string][]
      ).map(([name, answer]): (typeof families)[number] => [
        `splitting: ${name}`,
        (size) => ({ sources: [{ id: "a", text: "Alpha beta. " }], answer: answer(size) }),
      ]),
    ];

  it.each(families)("%s: steps grow linearly", (_, make) => {
    const stepsAt = (size: number): number => {
      const { sources: generated, answer } = make(size);
      const counter: StepCounter = { steps: 0 };
      checkAnswer(generated, answer, {}, counter);
      return counter.steps / size;
    };
    const small = stepsAt(10_000);
    const large = stepsAt(80_000);
    // Eight times the input: steps per character stay within a factor of two (quadratic would be eight).
    expect(large).toBeLessThan(small * 2 + 1);
  });
});
