import { describe, expect, it } from "vitest";
import { tokenizeStrictQuotes, tokenizeStrictSource, WordIds } from "./strict-tokens.js";

// Each token of `text` as the text it covers, read through the source tokenizer.
function tokensOf(text: string): string[] {
  const { starts } = tokenizeStrictSource(text, tokenizeStrictQuotes([]));
  return Array.from(starts.subarray(0, -1), (start, at) => text.slice(start, starts[at + 1]));
}

describe("strict tokens", () => {
  it.each<{ name: string; text: string; expected: string[] }>([
    { name: "an empty text", text: "", expected: [] },
    {
      name: "word runs, punctuation alone",
      text: "it's 1,5",
      expected: ["it", "'", "s", " ", "1", ",", "5"],
    },
    { name: "a whitespace run is one token", text: "a \n\t\u00a0b", expected: ["a", " \n\t\u00a0", "b"] },
    { name: "a combining mark belongs to its word", text: "cafe\u0301!", expected: ["cafe\u0301", "!"] },
    { name: "an astral letter is part of a word", text: "x\u{1d465}y", expected: ["x\u{1d465}y"] },
    { name: "an astral symbol is one token", text: "a\u{1f600}b", expected: ["a", "\u{1f600}", "b"] },
    {
      name: "a lone surrogate is its own token",
      text: "a\ud835b\udc65",
      expected: ["a", "\ud835", "b", "\udc65"],
    },
    { name: "letters of any script", text: "中文 テスト", expected: ["中文", " ", "テスト"] },
  ])("$name", ({ text, expected }) => {
    expect(tokensOf(text)).toEqual(expected);
  });

  it("gives the quotes' tokens ids of their own alphabet, whitespace runs all alike", () => {
    const quotes = tokenizeStrictQuotes(["a b", "b\n\na, c"]);
    expect(quotes.patterns.map((pattern) => [...pattern])).toEqual([
      [0, 1, 2],
      [2, 1, 0, 3, 1, 4],
    ]);
    expect(quotes.alphabetSize).toBe(5);
  });

  it("reads a source in the quotes' alphabet, -1 for tokens no quote holds", () => {
    const quotes = tokenizeStrictQuotes(["a b", "b, c"]);
    const source = tokenizeStrictSource("a  b; d, c", quotes);
    expect([...source.ids]).toEqual([0, 1, 2, -1, 1, -1, 3, 1, 4]);
    expect([...source.starts]).toEqual([0, 1, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe("WordIds", () => {
  // The word hash of readStrictToken: 31 * h + unit over the word's units.
  const hashOf = (word: string) => {
    let hash = 0;
    for (let unit = 0; unit < word.length; unit += 1)
      hash = (Math.imul(hash, 31) + word.charCodeAt(unit)) | 0;
    return hash;
  };

  it("finds each word it holds, and no other, when their hashes are equal", () => {
    // "Aa" and "BB" hash alike, and so does every word made of them.
    const held = ["AaAa", "AaBB", "BBAa"];
    expect(new Set([...held, "BBBB"].map(hashOf)).size).toBe(1);
    const words = new WordIds();
    for (const [id, word] of held.entries()) words.add(word, hashOf(word), id);
    const text = `x ${held.join(" ")} BBBB`;
    const found = ["AaAa", "AaBB", "BBAa", "BBBB"].map((word) => {
      const start = text.indexOf(word);
      return words.get(text, start, start + word.length, hashOf(word));
    });
    expect(found).toEqual([0, 1, 2, -1]);
    expect(words.get("Ab", 0, 2, hashOf("Ab"))).toBe(-1);
  });

  it("spreads a batch's thousands of words over its Maps, so no table grows to hundreds of kilobytes", () => {
    const words = new WordIds();
    for (let id = 0; id < 20_000; id += 1) {
      const word = `word${id.toString(36)}`;
      words.add(word, hashOf(word), id);
    }
    // 64 shards: about 313 words each; one Map of 20,000 entries is what it replaces.
    expect(words.largestShard).toBeLessThan(500);
  });
});
