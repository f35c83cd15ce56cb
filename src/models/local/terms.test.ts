import { describe, expect, it } from "vitest";
import {
  countTokens,
  extractTerms,
  isStopWord,
  labelTerms,
  rankingStem,
  singularStem,
  toRankingTerm,
  toTerm,
} from "./terms.js";

describe("extractTerms", () => {
  it.each([
    {
      name: "question words dropped, possessive and plural reduced, final e dropped",
      text: "What were Northwind's revenues in the quarters of 2024?",
      terms: ["northwind", "revenu", "quarter", "2024"],
    },
    {
      name: "repeats kept for term frequency",
      text: "Sales, sales and more sales.",
      terms: ["sal", "sal", "sal"],
    },
    { name: "German", text: "Wie hoch war der Umsatz?", terms: ["hoch", "war", "umsatz"] },
    { name: "Japanese", text: "売上高はいくらですか？", terms: ["売上", "上高"] },
    { name: "nothing but stop words", text: "What is it?", terms: [] },
  ])("$name", ({ text, terms }) => {
    expect(extractTerms(text)).toEqual(terms);
  });

  it.each([
    { word: "acme's", term: "acme" },
    { word: "what's", term: null },
    { word: "the", term: null },
    { word: "invoices", term: "invoice" },
  ])("toTerm($word) = $term", ({ word, term }) => {
    expect(toTerm(word)).toBe(term);
  });
});

describe("labelTerms", () => {
  it.each([
    { name: "snake_case", text: "invoice_number", terms: ["invoice", "number"] },
    { name: "camelCase", text: "invoiceNumber", terms: ["invoice", "number"] },
    { name: "PascalCase with an acronym", text: "VATNumber", terms: ["vat", "number"] },
    { name: "kebab-case", text: "due-date", terms: ["due", "date"] },
    { name: "abbreviation with a period", text: "Invoice No.", terms: ["invoice", "number"] },
    {
      name: "description words, stop words dropped",
      text: "the total amount due",
      terms: ["total", "amount", "due"],
    },
    { name: "plural", text: "Line items", terms: ["line", "item"] },
    { name: "German umlaut", text: "Rechnungsnummer Größe", terms: ["rechnungsnummer", "grosse"] },
    { name: "Japanese", text: "請求書番号", terms: ["請求", "求書", "書番", "番号"] },
  ])("$name", ({ text, terms }) => {
    expect(labelTerms(text)).toEqual(terms);
  });
});

describe("singularStem", () => {
  it.each([
    { word: "companies", stem: "company" },
    { word: "quarters", stem: "quarter" },
    { word: "sales", stem: "sale" },
    { word: "revenues", stem: "revenue" },
    { word: "business", stem: "business" },
    { word: "status", stem: "status" },
    { word: "employees", stem: "employee" },
    { word: "series", stem: "sery" },
    { word: "gas", stem: "gas" },
    { word: "q3", stem: "q3" },
    { word: "grosse", stem: "grosse" },
    { word: "москвы", stem: "москвы" },
  ])("$word → $stem", ({ word, stem }) => {
    expect(singularStem(word)).toBe(stem);
  });
});

describe("rankingStem", () => {
  it.each([
    { name: "plural and -ed", words: ["refund", "refunds", "refunded", "refunding"] },
    { name: "doubled consonant of -ing", words: ["ship", "ships", "shipping", "shipped"] },
    { name: "final e", words: ["issue", "issues", "issued", "issuing"] },
    { name: "-ies and -ied", words: ["carry", "carries", "carried"] },
    { name: "-ly", words: ["month", "months", "monthly"] },
    { name: "plural of -y", words: ["battery", "batteries"] },
    { name: "covered", words: ["cover", "covers", "covered", "covering"] },
  ])("forms of one word meet: $name", ({ words }) => {
    expect(new Set(words.map(rankingStem)).size).toBe(1);
  });

  it.each([
    { name: "business and busy", words: ["business", "busy"] },
    { name: "no stem under 3 letters", words: ["bed", "bing"] },
    { name: "need stays", words: ["need", "ne"] },
    { name: "cost and cast", words: ["cost", "cast"] },
    { name: "billed keeps its double l", words: ["billed", "bile"] },
  ])("different words stay apart: $name", ({ words }) => {
    expect(new Set(words.map(rankingStem)).size).toBe(words.length);
  });

  it.each([
    { word: "q3", stem: "q3" },
    { word: "grosse", stem: "gross" },
    { word: "москвы", stem: "москвы" },
    { word: "売上", stem: "売上" },
    { word: "the", stem: "the" },
  ])("other scripts, digits and short words: $word → $stem", ({ word, stem }) => {
    expect(rankingStem(word)).toBe(stem);
  });

  it("toRankingTerm drops the possessive and stop words", () => {
    expect([toRankingTerm("acme's"), toRankingTerm("what"), toRankingTerm("shipping")]).toEqual([
      "acm",
      null,
      "ship",
    ]);
  });
});

describe("isStopWord", () => {
  it.each([
    { name: "English question word", word: "what", stop: true },
    { name: "English function word", word: "the", stop: true },
    { name: "request wording", word: "according", stop: true },
    { name: "German function word (folded)", word: "fur", stop: true },
    { name: "Japanese particle", word: "は", stop: true },
    { name: "Japanese ending, folded with a combining mark", word: "て\u3099す", stop: true },
    { name: "Chinese particle", word: "的", stop: true },
    { name: "content word", word: "revenue", stop: false },
    { name: "number", word: "2024", stop: false },
    { name: "English content word that is a German function word elsewhere", word: "war", stop: false },
    { name: "longer hiragana word", word: "ありがとう", stop: false },
  ])("$name: $word", ({ word, stop }) => {
    expect(isStopWord(word)).toBe(stop);
  });
});

describe("countTokens", () => {
  it.each([
    { name: "empty", text: "", tokens: 0 },
    { name: "words", text: "Revenue grew fast", tokens: 3 },
    { name: "punctuation counts", text: "Revenue: $4.2M.", tokens: 7 },
    { name: "JSON", text: '{"claims":[]}', tokens: 8 },
    { name: "one per Japanese character", text: "売上高は増加", tokens: 6 },
    { name: "mixed scripts split at the script change", text: "Q3売上", tokens: 3 },
    { name: "accented words are one token", text: "Größe Amélie", tokens: 2 },
  ])("$name", ({ text, tokens }) => {
    expect(countTokens(text)).toBe(tokens);
  });

  it("is the same on every call (no regex state leaks between calls)", () => {
    expect([countTokens("a b c"), countTokens("a b c")]).toEqual([3, 3]);
  });
});
