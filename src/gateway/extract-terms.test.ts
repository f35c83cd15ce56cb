import { describe, expect, it } from "vitest";
import { extractTerms, toTerm } from "./extract-terms.js";

describe("extractTerms", () => {
  it.each([
    {
      name: "question words dropped, possessive and plural reduced",
      text: "What were Northwind's revenues in the quarters of 2024?",
      terms: ["northwind", "revenue", "quarter", "2024"],
    },
    {
      name: "repeats kept for term frequency",
      text: "Sales, sales and more sales.",
      terms: ["sale", "sale", "sale"],
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
