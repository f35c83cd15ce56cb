import { describe, expect, it } from "vitest";
import { addSourceMarker } from "./source-marker.js";

describe("addSourceMarker", () => {
  it.each([
    { name: "before a final period", claim: "Revenue rose 5%.", expected: "Revenue rose 5% [q3]." },
    { name: "before a final question mark", claim: "Is it open?", expected: "Is it open [q3]?" },
    { name: "before a final exclamation mark", claim: "It grew!", expected: "It grew [q3]!" },
    {
      name: "appended without final punctuation",
      claim: "Revenue rose 5%",
      expected: "Revenue rose 5% [q3]",
    },
    { name: "after trimming whitespace", claim: "  Revenue rose.  \n", expected: "Revenue rose [q3]." },
    {
      name: "before a full-width full stop",
      claim: "東京は日本の首都です。",
      expected: "東京は日本の首都です [q3]。",
    },
    { name: "only the final period moves", claim: "Approx. 5 p.m.", expected: "Approx. 5 p.m [q3]." },
  ])("$name", ({ claim, expected }) => {
    expect(addSourceMarker(claim, "q3")).toBe(expected);
  });
});
