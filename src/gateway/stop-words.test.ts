import { describe, expect, it } from "vitest";
import { isStopWord } from "./stop-words.js";

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
