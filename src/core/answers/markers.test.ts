import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PAUSE } from "../pause.js";
import { matchesByWindows } from "./markers.js";

// Patterns shaped like MARKER and LINK_DESTINATION (bounded repeats, a look-ahead, code points counted under
// `u`), small enough that windows of a few characters cut through their matches.
const BRACKET = /\[\^([^\]\s]{1,4})\](?!:)|\[([^[\]\n]{1,5})\](?!\()|\((?:src)[ \t]{0,2}:([^()\n]{1,3})\)/giu;
const BRACKET_REACH = 15;
const LINK = /\]\([^()\s]{1,6}\)/g;
const LINK_REACH = 10;

function whole(pattern: RegExp, text: string): [number, string][] {
  return [...text.matchAll(pattern)].map((match) => [match.index, match[0]]);
}

function byWindows(pattern: RegExp, text: string, reach: number, windowChars: number): [number, string][] {
  const found: [number, string][] = [];
  for (const match of matchesByWindows(pattern, text, reach, undefined, windowChars))
    if (match !== PAUSE) found.push([match.index, match[0]]);
  return found;
}

describe("matchesByWindows", () => {
  const piece = fc.constantFrom(
    "[",
    "]",
    "(",
    ")",
    "^",
    "1",
    ":",
    "a",
    " ",
    "\n",
    "src",
    "SRC:",
    "𝐀",
    "x",
    "](",
  );

  it.each([
    ["a marker-like pattern", BRACKET, BRACKET_REACH],
    ["a link-like pattern", LINK, LINK_REACH],
  ])("finds what one pass over the whole text finds, for %s, whatever the window", (_, pattern, reach) => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.integer({ min: 1, max: 9 }),
        (pieces, windowChars) => {
          const text = pieces.join("");
          expect(byWindows(pattern, text, reach, windowChars)).toEqual(whole(pattern, text));
        },
      ),
      { seed: 3434, numRuns: 2000 },
    );
  });
});
