import { describe, expect, it } from "vitest";
import { isWhitespaceChar } from "./is-whitespace-char.js";

describe("isWhitespaceChar", () => {
  it.each<{ name: string; char: string; expected: boolean }>([
    { name: "space", char: " ", expected: true },
    { name: "tab", char: "\t", expected: true },
    { name: "line feed", char: "\n", expected: true },
    { name: "carriage return", char: "\r", expected: true },
    { name: "no-break space", char: "\u00a0", expected: true },
    { name: "ideographic space", char: "\u3000", expected: true },
    { name: "line separator", char: "\u2028", expected: true },
    { name: "byte order mark", char: "\ufeff", expected: true },
    { name: "a letter", char: "a", expected: false },
    { name: "a period", char: ".", expected: false },
    { name: "zero-width space (a format character, not whitespace)", char: "\u200b", expected: false },
    { name: "unit separator", char: "\u001f", expected: false },
  ])("$name", ({ char, expected }) => {
    expect(isWhitespaceChar(char.charCodeAt(0))).toEqual(expected);
  });

  it("agrees with JavaScript's \\s on every UTF-16 code unit", () => {
    const disagreements: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (isWhitespaceChar(code) !== /\s/u.test(String.fromCharCode(code))) disagreements.push(code);
    }
    expect(disagreements).toEqual([]);
  });
});
