import { describe, expect, it } from "vitest";
import { stemWord } from "./stem-word.js";

describe("stemWord", () => {
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
    expect(stemWord(word)).toBe(stem);
  });
});
