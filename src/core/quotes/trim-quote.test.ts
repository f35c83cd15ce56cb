import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trimQuote } from "./trim-quote.js";

describe("trimQuote", () => {
  it.each<{ name: string; quote: string; expected: string }>([
    { name: "plain text is unchanged", quote: "30 days", expected: "30 days" },
    { name: "surrounding whitespace goes", quote: " \n\t30 days \r\n", expected: "30 days" },
    { name: "straight double quotes go", quote: '"30 days"', expected: "30 days" },
    { name: "curly double quotes go", quote: "\u201c30 days\u201d", expected: "30 days" },
    { name: "straight single quotes go", quote: "'30 days'", expected: "30 days" },
    { name: "curly single quotes go", quote: "\u201830 days\u2019", expected: "30 days" },
    { name: "guillemets go", quote: "\u00ab30 days\u00bb", expected: "30 days" },
    { name: "whitespace inside the marks goes too", quote: ' " 30 days " ', expected: "30 days" },
    { name: "only one pair goes", quote: "\"'30 days'\"", expected: "'30 days'" },
    { name: "mismatched marks stay", quote: '\u201c30 days"', expected: '\u201c30 days"' },
    { name: "a reversed pair stays", quote: "\u201d30 days\u201c", expected: "\u201d30 days\u201c" },
    { name: "a closing apostrophe alone stays", quote: "the Panthers'", expected: "the Panthers'" },
    { name: "an opening mark alone stays", quote: '"30 days', expected: '"30 days' },
    { name: "a lone mark stays", quote: '"', expected: '"' },
    { name: "an empty pair leaves nothing", quote: '""', expected: "" },
    { name: "a pair around whitespace leaves nothing", quote: "\u201c  \u201d", expected: "" },
    { name: "whitespace alone leaves nothing", quote: " \n ", expected: "" },
    { name: "the empty quote stays empty", quote: "", expected: "" },
    { name: "inner quotation marks stay", quote: 'He said "stop" twice', expected: 'He said "stop" twice' },
  ])("$name", ({ quote, expected }) => {
    expect(trimQuote(quote)).toEqual(expected);
  });

  it("returns a trimmed piece of the quote", () => {
    fc.assert(
      fc.property(fc.string(), (quote) => {
        const trimmed = trimQuote(quote);
        expect(trimmed.trim()).toEqual(trimmed);
        expect(quote.includes(trimmed)).toBe(true);
      }),
    );
  });

  it("undoes one pair of quotation marks a model added", () => {
    const pairs = ['""', "\u201c\u201d", "''", "\u2018\u2019", "\u00ab\u00bb"];
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...pairs), (text, pair) => {
        const inner = trimQuote(text);
        expect(trimQuote(` ${pair[0]}${inner}${pair[1]}\n`)).toEqual(inner);
      }),
    );
  });
});
