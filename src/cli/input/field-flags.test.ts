import { describe, expect, it } from "vitest";
import { parseFieldFlags } from "./field-flags.js";

describe("parseFieldFlags", () => {
  it("splits at the first '=' and trims", () => {
    expect(parseFieldFlags(["total = the amount = due ", "party=the customer"])).toEqual({
      total: "the amount = due",
      party: "the customer",
    });
  });

  it("keeps a field named __proto__ as an ordinary key", () => {
    const schema = parseFieldFlags(["__proto__=odd but allowed"]);
    expect(Object.keys(schema)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(schema)).toBe(Object.prototype);
  });

  it.each([
    { name: "no '='", value: "total", message: '--field "total" must read name="description"' },
    { name: "no name", value: "=the total", message: '--field "=the total" must read name="description"' },
    { name: "no description", value: "total= ", message: '--field "total= " must read name="description"' },
  ])("rejects $name", ({ value, message }) => {
    expect(() => parseFieldFlags([value])).toThrow(message);
  });

  it("rejects a repeated name", () => {
    expect(() => parseFieldFlags(["a=x", "a=y"])).toThrow('--field "a" is given twice.');
  });
});
