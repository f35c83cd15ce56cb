import { describe, expect, it } from "vitest";
import { reasonInWords } from "./reason-in-words.js";

describe("reasonInWords", () => {
  it.each([
    ["quote_not_found", "quote not found in the source"],
    ["unknown_source", "cites a source that was not supplied"],
    ["number_not_found", "a number is not in the cited source/cell"],
    ["not_found", "not found in any source"],
    ["something_new", "something_new"],
    ["toString", "toString"],
  ])("%s → %s", (reason, expected) => {
    expect(reasonInWords(reason)).toBe(expected);
  });
});
