// Twelve answers written the way chat and search apps write them (markdown, bold lead-ins, chat framing,
// dates and units in other forms, a number taken from the wrong paragraph, a sentence re-cited as a hint
// suggests), against invented sources of a few paragraphs each. Every line carries the verdict a careful
// reader gives it: `kept` (the cited source says it), `dropped` (it does not), or `framing` (not a claim:
// headings, lead-ins, "Here's an overview.", sign-offs; a checker must not flag it). Written for this
// project; no benchmark text.
import type { AnswerCheckOptions, Source } from "../../src/core/index.js";

export type Verdict = "kept" | "dropped" | "framing";

/** One line or clause of an answer as a careful reader judges it. */
export interface JudgedPart {
  /** Text that occurs once in the answer and lies inside the part. */
  find: string;
  verdict: Verdict;
  /** Why, when it is not plain from the sources. */
  why?: string;
}

export interface AppAnswer {
  name: string;
  sources: Source[];
  answer: string;
  options?: AnswerCheckOptions;
  parts: JudgedPart[];
}

const corvid: Source = {
  id: "corvid",
  text: `# Corvid phones 2025

The Corvid X is the flagship of the 2025 line. It has a 6.7-inch display, a 5,000 mAh battery and 256 GB of storage. The Corvid X starts at $1,099 in the United States.

The Corvid Lite is the budget model. It has a 6.1-inch display and 128 GB of storage, and it starts at $699.

Both phones ship on 14 October 2025 and get seven years of software updates.`,
};

const returns: Source = {
  id: "returns",
  text: `Corvid store returns policy

Phones bought from the Corvid store can be returned within 30 days of delivery. Returned phones must include the original charger and box. Refunds go back to the original payment method within 5 business days of the return being received.

Cases and screen protectors can be returned within 14 days if unopened.`,
};

const tramway: Source = {
  id: "tramway",
  text: `Harbourside Tramway

The Harbourside Tramway opened on 13 August 1961 with a single line of 4.2 kilometres. The line was extended to the university in 1978.

Today the network has 3 lines and 38 stops, and it carried 21,000 passengers a day in 2023. The city it serves covers 212 square kilometres.`,
};

const larkspur: Source = {
  id: "larkspur",
  text: `Larkspur Foods: third quarter 2024

Revenue for the third quarter was $48.2 million, up 12% from a year earlier. Operating margin rose to 9.1%.

In the third quarter of 2023, revenue was $43.0 million and the company opened 4 stores.

The company now runs 61 stores and employs 2,300 people.`,
};

const kiln: Source = {
  id: "kiln",
  text: `Caring for a glazed stoneware kiln shelf

Scrape loose glaze drips off the shelf with a carbide scraper before every firing. Coat the top of the shelf with kiln wash, two thin layers, and let it dry for 24 hours.

Never wash a shelf with water: trapped moisture can crack it in the next firing. Store shelves on their edges in a dry place.`,
};

export const APP_ANSWERS: AppAnswer[] = [
  {
    name: "re-cited as the wrong_source hint suggests",
    sources: [corvid, returns],
    answer:
      "**Corvid X pricing**\n\nThe Corvid X starts at $699 [1]. It has a 6.7-inch display and a 5,000 mAh battery [1].",
    parts: [
      { find: "**Corvid X pricing**", verdict: "framing" },
      { find: "starts at $699", verdict: "dropped", why: "$699 is the Lite's price, in another paragraph" },
      { find: "6.7-inch display and a 5,000 mAh", verdict: "kept" },
    ],
  },
  {
    name: "overview with bold lead-ins and a sign-off",
    sources: [corvid, returns],
    answer: `Here's an overview of the Corvid store's return rules.

- **Time limit.** Phones can be returned within 30 days of delivery [2].
- **Small items.** Cases and screen protectors can be returned within 14 days if unopened [2].
- **Money back.** Refunds reach the original payment method within 5 business days [2].

Let me know if you need anything else!`,
    parts: [
      { find: "Here's an overview", verdict: "framing" },
      { find: "**Time limit.**", verdict: "framing" },
      { find: "Phones can be returned within 30 days", verdict: "kept" },
      { find: "**Small items.**", verdict: "framing" },
      { find: "Cases and screen protectors", verdict: "kept" },
      { find: "**Money back.**", verdict: "framing" },
      { find: "Refunds reach", verdict: "kept" },
      { find: "Let me know", verdict: "framing" },
    ],
  },
  {
    name: "dates and units in other forms",
    sources: [tramway],
    answer:
      "The Harbourside Tramway opened on 13/08/1961 [1]. It serves a city of 212 km² [1]. In 2023 it carried about 21,000 passengers a day [1].",
    parts: [
      { find: "opened on 13/08/1961", verdict: "kept", why: "13 August 1961, day first" },
      { find: "212 km²", verdict: "kept" },
      { find: "21,000 passengers", verdict: "kept" },
    ],
  },
  {
    name: "an ISO date, a month abbreviation, and a date no source gives",
    sources: [corvid],
    answer:
      "Both Corvid phones ship on Oct 14, 2025 [1]. The release date is 2025-10-14 [1]. Pre-orders open on 1 October [1].",
    parts: [
      { find: "ship on Oct 14, 2025", verdict: "kept" },
      { find: "2025-10-14", verdict: "kept" },
      { find: "Pre-orders open", verdict: "dropped", why: "the source says nothing of pre-orders" },
    ],
  },
  {
    name: "a number from the wrong paragraph",
    sources: [larkspur],
    answer:
      "Larkspur Foods' revenue in the third quarter of 2024 was $48.2 million, up 12% [1]. The company opened 4 stores in the third quarter of 2024 [1]. It employs 2,300 people across 61 stores [1].",
    parts: [
      { find: "$48.2 million", verdict: "kept" },
      { find: "opened 4 stores", verdict: "dropped", why: "4 stores were opened in 2023, not 2024" },
      { find: "2,300 people", verdict: "kept" },
    ],
  },
  {
    name: "a quarter written Q3",
    sources: [larkspur],
    answer: "In Q3 2024, Larkspur's operating margin rose to 9.1% [1]. Q3 revenue was up 15% [1].",
    parts: [
      { find: "operating margin rose to 9.1%", verdict: "kept", why: "Q3 is the third quarter" },
      { find: "up 15%", verdict: "dropped", why: "revenue was up 12%" },
    ],
  },
  {
    name: "chat filler around cited sentences, discourse openers",
    sources: [corvid],
    answer:
      "Great question! The Corvid Lite is the budget model, with a 6.1-inch display [1]. Additionally, it comes with 128 GB of storage [1]. However, it's worth noting that it starts at $699 [1]. Hope this helps!",
    parts: [
      { find: "Great question!", verdict: "framing" },
      { find: "budget model", verdict: "kept" },
      { find: "128 GB", verdict: "kept" },
      { find: "starts at $699", verdict: "kept" },
      { find: "Hope this helps!", verdict: "framing" },
    ],
  },
  {
    name: "markers in mid-sentence",
    sources: [corvid, returns],
    answer:
      "The Corvid X has 256 GB of storage [1], while returned phones must include the original charger and box [2]. Refunds take 5 business days [2] and every phone comes with a free case [1].",
    parts: [
      { find: "256 GB of storage", verdict: "kept" },
      { find: "original charger and box", verdict: "kept" },
      {
        find: "Refunds take 5 business days [2] and every phone comes with a free case",
        verdict: "dropped",
        why: "one sentence: its second clause is in no source (a claim is kept or dropped whole)",
      },
    ],
  },
  {
    name: "lenticular citations, a wrong count",
    sources: [tramway],
    answer:
      "The Harbourside Tramway was extended to the university in 1978【1†tramway】. It now has 3 lines and 40 stops【1†tramway】.",
    parts: [
      { find: "extended to the university", verdict: "kept" },
      { find: "40 stops", verdict: "dropped", why: "38 stops" },
    ],
  },
  {
    name: "a name no source holds",
    sources: [tramway],
    answer:
      "The Harbourside Tramway was designed by the engineer Maria Okonkwo [1]. Its first line was 4.2 km long [1].",
    parts: [
      { find: "Maria Okonkwo", verdict: "dropped" },
      { find: "4.2 km long", verdict: "kept", why: "4.2 kilometres" },
    ],
  },
  {
    name: "a quotation lower-cased, lenient mode",
    sources: [returns],
    options: { mode: "lenient" },
    answer:
      'The policy says "phones bought from the Corvid store can be returned within 30 days of delivery" [1]. It also says "refunds are paid in cash" [1].',
    parts: [
      { find: "phones bought from", verdict: "kept" },
      { find: "paid in cash", verdict: "dropped" },
    ],
  },
  {
    name: "a how-to with a heading, numbered steps, CRLF and an offer",
    sources: [kiln],
    answer:
      "## Kiln shelf care\r\n\r\n1. Scrape glaze drips off with a carbide scraper before each firing [1].\r\n2. Wash the shelf with water after every firing [1].\r\n3. Let the kiln wash dry for 24 hours [1].\r\n\r\nWould you like tips on loading the kiln too?",
    parts: [
      { find: "## Kiln shelf care", verdict: "framing" },
      { find: "carbide scraper", verdict: "kept" },
      { find: "Wash the shelf with water", verdict: "dropped", why: "the source says never to" },
      { find: "24 hours", verdict: "kept" },
      { find: "Would you like tips", verdict: "framing" },
    ],
  },
];

/** A part's outcome: `dropped` when an unsupported entry's answer range meets its text, else `kept`. */
export interface PartOutcome {
  answer: string;
  part: JudgedPart;
  outcome: "kept" | "dropped";
  /** The reason of the entry that dropped it. */
  reason?: string;
  right: boolean;
}

/** Checks every app answer with `check` and judges each part against its careful reader's verdict. */
export function judgeAppAnswers(
  check: (
    sources: Source[],
    answer: string,
    options: AnswerCheckOptions,
  ) => { unsupported: { answerRange: [number, number]; reason: string }[] },
): PartOutcome[] {
  return APP_ANSWERS.flatMap((app) => {
    const result = check(app.sources, app.answer, app.options ?? {});
    return app.parts.map((part): PartOutcome => {
      const start = app.answer.indexOf(part.find);
      if (start < 0 || app.answer.indexOf(part.find, start + 1) >= 0)
        throw new Error(`${app.name}: "${part.find}" must occur once in the answer`);
      const end = start + part.find.length;
      const miss = result.unsupported.find(
        (entry) => entry.answerRange[0] < end && entry.answerRange[1] > start,
      );
      const outcome = miss === undefined ? "kept" : "dropped";
      const right = part.verdict === "dropped" ? outcome === "dropped" : outcome === "kept";
      return {
        answer: app.name,
        part,
        outcome,
        ...(miss === undefined ? {} : { reason: miss.reason }),
        right,
      };
    });
  });
}
