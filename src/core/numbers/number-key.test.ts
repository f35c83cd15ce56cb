import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { numberKey } from "./number-key.js";

describe("numberKey", () => {
  it.each([
    { name: "plain integer", text: "1200", key: "1200" },
    { name: "thousands separators", text: "1,200", key: "1200" },
    { name: "several groups", text: "1,234,567.89", key: "1234567.89" },
    { name: "trailing decimal zeros", text: "1.50", key: "1.5" },
    { name: "all-zero decimals", text: "3.000", key: "3" },
    { name: "leading zeros", text: "007", key: "7" },
    { name: "zero", text: "0", key: "0" },
    { name: "zero with decimals", text: "00.00", key: "0" },
    { name: "fraction below one", text: "0.50", key: "0.5" },
    { name: "1.5 is not 15", text: "1.5", key: "1.5" },
  ])("$name: $text → $key", ({ text, key }) => {
    expect(numberKey(text)).toBe(key);
  });

  it("gives one key however a number is spelled (separators, leading and trailing zeros)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.stringMatching(/^\d{0,4}$/),
        fc.nat({ max: 3 }),
        fc.nat({ max: 3 }),
        (whole, fraction, leadingZeros, trailingZeros) => {
          const digits = whole.toString();
          const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
          const plain = fraction === "" ? digits : `${digits}.${fraction}`;
          const padded = `${"0".repeat(leadingZeros)}${grouped}.${fraction}${"0".repeat(trailingZeros)}`;
          expect(numberKey(padded)).toBe(numberKey(plain));
        },
      ),
    );
  });

  it("keeps different values apart", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        fc.pre(a !== b);
        expect(numberKey(String(a))).not.toBe(numberKey(String(b)));
      }),
    );
  });
});
