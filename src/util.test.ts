import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trimTrailing } from "./util.js";

describe("trimTrailing", () => {
  it.each([
    { text: "https://example.com//", characters: "/", trimmed: "https://example.com" },
    { text: "0.500", characters: "0", trimmed: "0.5" },
    { text: "Rome.,;", characters: ",.;:!?", trimmed: "Rome" },
    { text: "///", characters: "/", trimmed: "" },
    { text: "a/b", characters: "/", trimmed: "a/b" },
    { text: "", characters: "/", trimmed: "" },
  ])("$text without trailing $characters is $trimmed", ({ text, characters, trimmed }) => {
    expect(trimTrailing(text, characters)).toBe(trimmed);
  });

  it("removes what the anchored regex it replaced removes", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("/", "0", ".", "a", " ") }), (text) => {
        expect(trimTrailing(text, "/")).toBe(text.replace(/\/+$/, ""));
        expect(trimTrailing(text, "0")).toBe(text.replace(/0+$/, ""));
        expect(trimTrailing(text, "/.")).toBe(text.replace(/[/.]+$/, ""));
      }),
      { seed: 38 },
    );
  });

  it("reads 1 MB of a run that does not end the text once", () => {
    // One backward loop over the run at the end: O(n). `/\/+$/` retried the run from each of its characters.
    const text = `${"/".repeat(1_000_000)}a`;
    expect(trimTrailing(text, "/")).toBe(text);
    expect(trimTrailing(`a${"/".repeat(1_000_000)}`, "/")).toBe("a");
  });
});
