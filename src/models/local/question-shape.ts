import { forEachWord } from "../../core/index.js";
import { rankingStem, toRankingTerm } from "./terms.js";

/**
 * What kind of answer a question asks for, read from its question word: an amount (`how many`, `how
 * long`, `what percentage`), a price (`how much … cost`, `what is the fee`), a time (`when`, `what year`),
 * or nothing in particular (null).
 */
export type AnswerShape = "quantity" | "money" | "time";

/** A question as the ranking reads it. */
export interface QuestionReading {
  /**
   * Its content terms (see `extractTerms`), without the word that only says what kind of answer it asks
   * for (`long` in `how long`, `year` in `what year`).
   */
  terms: string[];
  shape: AnswerShape | null;
}

const QUESTION_WORDS: ReadonlySet<string> = new Set(["how", "what", "which", "when", "who", "where", "why"]);
// `how long`, `how old`: the second word asks for an amount; it says nothing about the topic.
const HOW_QUANTITY: ReadonlySet<string> = new Set(
  "many much long old far large big tall high often soon heavy fast wide deep".split(" "),
);
const WHAT_TIME: ReadonlySet<string> = new Set("year date day month century decade time".split(" "));
const WHAT_QUANTITY: ReadonlySet<string> = new Set(
  "percentage percent number amount proportion share rate size".split(" "),
);

// `take` in `how long does delivery take` asks for the duration; a sentence with `takes` about another
// thing (`delivery takes 3 days` for `how long do refunds take`) is no closer to the answer.
const DURATION_VERBS: ReadonlySet<string> = new Set(
  ["take", "takes", "took", "taken", "taking"].map(rankingStem),
);
const stems = (words: string): ReadonlySet<string> =>
  new Set(
    words
      .split(/\s+/)
      .filter((word) => word !== "")
      .map(rankingStem),
  );
// Words of a question that asks for a price, and of a sentence that states one.
const MONEY_QUESTION = stems("cost costs price prices fee fees charge charged pay paid spend spent worth");
const MONEY_WORDS = stems(
  "cost price fee charge charged free paid payable dollar dollars euro euros pound pounds cent cents usd eur gbp",
);
const NUMBER_WORDS = stems(
  `zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
  seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand
  thousands million millions billion billions dozen dozens half twice`,
);
// `may` is left out of the months: it is far more often the verb, and a date in May has a digit anyway.
const TIME_WORDS = stems(
  `january february march april june july august september october november december monday tuesday
  wednesday thursday friday saturday sunday century centuries decade decades today yesterday tomorrow`,
);
const DIGIT = /\p{N}/u;
const CURRENCY = /\p{Sc}/u;

/**
 * Reads `question`: its ranking terms and the answer shape its first question word asks for. O(length of
 * the question).
 */
export function readQuestion(question: string): QuestionReading {
  const terms: string[] = [];
  let questionWord: string | null = null;
  let nextIsSecond = false;
  let asksQuantity = false;
  let asksTime = false;
  let namesPrice = false;
  forEachWord(question, (word) => {
    if (questionWord === null && QUESTION_WORDS.has(word)) {
      questionWord = word;
      nextIsSecond = true;
      asksTime = word === "when";
      return;
    }
    if (nextIsSecond) {
      nextIsSecond = false;
      if (questionWord === "how" && HOW_QUANTITY.has(word)) {
        asksQuantity = true;
        return; // `long` in `how long` is the question, not its topic
      }
      if (questionWord === "what" || questionWord === "which") {
        asksTime = WHAT_TIME.has(word);
        asksQuantity = WHAT_QUANTITY.has(word);
        // `year` in `what year`, like `long` in `how long`: the answer is a year, not the word.
        if (asksTime || asksQuantity) return;
      }
    }
    const term = toRankingTerm(word);
    if (term === null || (asksQuantity && DURATION_VERBS.has(term))) return;
    terms.push(term);
    if (MONEY_QUESTION.has(term)) namesPrice = true;
  });
  const asksPrice = namesPrice && (questionWord === "what" || questionWord === "which" || asksQuantity);
  const shape: AnswerShape | null = asksTime
    ? "time"
    : asksPrice
      ? "money"
      : asksQuantity
        ? "quantity"
        : null;
  return { terms, shape };
}

/**
 * True when a sentence (its text and its ranking terms) could hold an answer of `shape`: a digit or a
 * number word for an amount; a currency sign or a price word for a price; a digit, a month, a weekday or
 * a century for a time. O(length of the sentence).
 */
export function fitsShape(shape: AnswerShape, text: string, terms: readonly string[]): boolean {
  switch (shape) {
    case "quantity":
      return DIGIT.test(text) || terms.some((term) => NUMBER_WORDS.has(term));
    case "money":
      return CURRENCY.test(text) || terms.some((term) => MONEY_WORDS.has(term));
    case "time":
      return DIGIT.test(text) || terms.some((term) => TIME_WORDS.has(term));
  }
}
