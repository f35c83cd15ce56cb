import { describe, expect, it } from "vitest";
import { countTokens } from "./count-tokens.js";

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
