import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forEachScaledNumber } from "./scaled.js";

// The pattern the scanner reads as, kept here as its oracle: the scanner must find what it finds, with the
// same values (the scale applied to the digits as written out, commas dropped, as a plain decimal).
const SCALED =
  /(?<![\p{L}\p{N}.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\p{N}])(?:([KkMB]|bn)(?![\p{L}\p{N}])|[ \t\u00a0]{1,3}(thousand|million|billion|trillion)(?![\p{L}])|(['’]?s)(?![\p{L}\p{N}]))?/gu;
const SCALES: Record<string, number> = {
  k: 3,
  K: 3,
  thousand: 3,
  M: 6,
  million: 6,
  B: 9,
  bn: 9,
  billion: 9,
  trillion: 12,
};

function scale(written: string, exponent: number): string {
  const plain = written.replace(/,/g, "");
  const [whole = "", fraction = ""] = plain.split(".");
  const digits = `${whole}${fraction.padEnd(exponent, "0")}`;
  const point = whole.length + exponent;
  const integer = digits.slice(0, point).replace(/^0+(?=\d)/, "");
  const rest = digits.slice(point).replace(/0+$/, "");
  return rest === "" ? integer : `${integer}.${rest}`;
}

type Found = [value: string, scaled: boolean, start: number, end: number];

function byPattern(text: string): Found[] {
  const found: Found[] = [];
  for (const match of text.matchAll(SCALED)) {
    const [whole, digits, glued, word, decade] = match as unknown as (string | undefined)[];
    const end = match.index + (whole as string).length;
    const unit = glued ?? word;
    if (unit !== undefined)
      found.push([scale(digits as string, SCALES[unit] as number), true, match.index, end]);
    else if (decade !== undefined && /^\d{3}0$/.test(digits as string))
      found.push([`${digits}s`, true, match.index, end]);
    else found.push([scale(digits as string, 0), false, match.index, end]);
  }
  return found;
}

function byScanner(text: string): Found[] {
  const found: Found[] = [];
  forEachScaledNumber(text, (value, scaled, start, end) => found.push([value, scaled, start, end]));
  return found;
}

describe("forEachScaledNumber", () => {
  it("applies the scale exactly", () => {
    expect(
      byScanner("21K 1.25 million 3bn 2,000 1990's 0.5M 007 1,234.50 2000s 1995s").map(([v]) => v),
    ).toEqual(["21000", "1250000", "3000000000", "2000", "1990s", "500000", "7", "1234.5", "2000s", "1995"]);
  });

  it.each([
    ["thousands groups backed off to the last one no numeral follows", "12,345,6789 and 1,2345"],
    ["a decimal part backed off before a numeral", "1.23٣ and 12٣"],
    ["letters, numerals, dots and commas before", "a1 ٣1 .5 ,7 é9 𝐀1 x 8"],
    [
      "glued and spaced scales with what follows them",
      "3Ks 3K. 4bn5 5 \u00a0million 6    million 7 millions 8 trillion!",
    ],
    ["decades with and without apostrophes", "1990’s 1990's 1990'st 1990s2 199s 19,990s"],
  ])("reads %s as the pattern does", (_name, text) => {
    expect(byScanner(text)).toEqual(byPattern(text));
  });

  it("reads every generated text as the pattern does", () => {
    const piece = fc.constantFrom(
      "1",
      "0",
      "9",
      "12",
      "123",
      "1234",
      "2000",
      ",",
      ".",
      " ",
      "\t",
      "\u00a0",
      "K",
      "k",
      "M",
      "B",
      "bn",
      "b",
      "n",
      "s",
      "'",
      "’",
      "thousand",
      "million",
      "billion",
      "trillion",
      "a",
      "é",
      "٣",
      "𝐀",
      "-",
      "%",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join("");
        expect(byScanner(text)).toEqual(byPattern(text));
      }),
      { seed: 3434, numRuns: 3000 },
    );
  });
});
