import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { invalidUtf8At, notUtf8At } from "./body-bytes.js";

describe("invalidUtf8At", () => {
  const fatal = new TextDecoder("utf-8", { fatal: true });
  const decodes = (bytes: Uint8Array): boolean => {
    try {
      fatal.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };

  it.each([
    ["ASCII", [0x61, 0x62], -1],
    ["a four-byte character", [0xf0, 0x9f, 0x98, 0x80], -1],
    ["a lone continuation byte", [0x61, 0x80, 0x62], 1],
    ["an overlong two-byte form", [0xc0, 0xaf], 0],
    ["an encoded surrogate", [0x61, 0xed, 0xa0, 0x80], 1],
    ["a character cut off at the end", [0x61, 0xe2, 0x82], 1],
    ["a bad continuation", [0xe2, 0x28, 0xa1], 0],
    ["past U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
    ["Latin-1 é", [0x63, 0x61, 0x66, 0xe9], 3],
  ])("%s: %s", (_, bytes, expected) => {
    expect(invalidUtf8At(Uint8Array.from(bytes))).toBe(expected);
  });

  it("agrees with a fatal TextDecoder on which bytes are UTF-8, and the bytes before the offset are", () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff }));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), (list) => {
        const bytes = Uint8Array.from(list);
        const at = invalidUtf8At(bytes);
        expect(at === -1).toBe(decodes(bytes));
        if (at >= 0) {
          // The bytes before it are UTF-8, and the sequence it starts is not.
          expect(at).toBeLessThan(bytes.length);
          expect(decodes(bytes.subarray(0, at))).toBe(true);
          expect(decodes(bytes.subarray(0, at + 4))).toBe(false);
        }
      }),
      { seed: 34, numRuns: 2000 },
    );
  });
});

describe("notUtf8At", () => {
  it("names the first bad byte's offset and value, or nothing when all is UTF-8", () => {
    expect(notUtf8At(Uint8Array.from([0x63, 0x61, 0x66, 0xe9]))).toBe(
      "the byte at offset 3 (0xe9) does not belong to a UTF-8 character",
    );
    expect(notUtf8At(Uint8Array.from([0x05, 0x80]))).toBe(
      "the byte at offset 1 (0x80) does not belong to a UTF-8 character",
    );
    expect(notUtf8At(new TextEncoder().encode("café 東京"))).toBeUndefined();
  });
});
