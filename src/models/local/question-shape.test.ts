import { describe, expect, it } from "vitest";
import { fitsShape, readQuestion } from "./question-shape.js";
import { extractTerms } from "./terms.js";

describe("readQuestion", () => {
  it.each([
    { question: "How long is the warranty on batteries?", terms: ["warranty", "battery"], shape: "quantity" },
    { question: "How many staff work here?", terms: ["staff", "work"], shape: "quantity" },
    {
      question: "What percentage of sales is online?",
      terms: ["sal", "onlin"],
      shape: "quantity",
    },
    { question: "How much does shipping cost?", terms: ["ship", "cost"], shape: "money" },
    { question: "What is the fee for a late return?", terms: ["fee", "lat", "return"], shape: "money" },
    { question: "When was the office opened?", terms: ["offic", "open"], shape: "time" },
    { question: "In what year was it founded?", terms: ["found"], shape: "time" },
    { question: "Who paid the fee?", terms: ["paid", "fee"], shape: null },
    { question: "Which plan is the cheapest?", terms: ["plan", "cheapest"], shape: null },
    { question: "Describe the return policy.", terms: ["return", "policy"], shape: null },
  ])("$question", ({ question, terms, shape }) => {
    expect(readQuestion(question)).toEqual({ terms, shape });
  });

  it("drops `take` only from a question that asks how long", () => {
    expect(readQuestion("How long do refunds take?").terms).toEqual(["refund"]);
    expect(readQuestion("Which route does the bus take?").terms).toEqual(["rout", "bus", "tak"]);
  });

  it("only the first question word sets the shape", () => {
    expect(readQuestion("Who decided when the office opens?").shape).toBeNull();
  });
});

describe("fitsShape", () => {
  it.each([
    { shape: "quantity", text: "Batteries are covered for 12 months.", fits: true },
    { shape: "quantity", text: "It employs twelve people.", fits: true },
    { shape: "quantity", text: "Batteries are covered by the warranty.", fits: false },
    { shape: "money", text: "Shipping costs €4.95 per order.", fits: true },
    { shape: "money", text: "Shipping is free on every order.", fits: true },
    { shape: "money", text: "Shipping takes 3-5 business days.", fits: false },
    { shape: "time", text: "The office opened in March.", fits: true },
    { shape: "time", text: "The office opened in 2019.", fits: true },
    { shape: "time", text: "The office opened after the merger.", fits: false },
  ] as const)("$shape: $text", ({ shape, text, fits }) => {
    expect(fitsShape(shape, text, extractTerms(text))).toBe(fits);
  });
});
