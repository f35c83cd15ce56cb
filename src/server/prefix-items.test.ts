import { describe, expect, it } from "vitest";
import { usePrefixItems } from "./prefix-items.js";

describe("usePrefixItems", () => {
  it.each([
    {
      name: "a closed tuple becomes prefixItems with items: false",
      input: {
        type: "array",
        items: [{ type: "integer" }, { type: "integer" }],
        additionalItems: false,
        minItems: 2,
      },
      expected: {
        type: "array",
        prefixItems: [{ type: "integer" }, { type: "integer" }],
        items: false,
        minItems: 2,
      },
    },
    {
      name: "an open tuple becomes prefixItems alone",
      input: { type: "array", items: [{ type: "string" }] },
      expected: { type: "array", prefixItems: [{ type: "string" }] },
    },
    {
      name: "a list schema is left alone",
      input: { type: "array", items: { type: "string" }, additionalItems: false },
      expected: { type: "array", items: { type: "string" }, additionalItems: false },
    },
    {
      name: "a property named items is not a tuple",
      input: { type: "object", properties: { items: { type: "array", items: { type: "string" } } } },
      expected: { type: "object", properties: { items: { type: "array", items: { type: "string" } } } },
    },
    {
      name: "tuples deep inside are rewritten",
      input: { paths: { "/x": [{ schema: { items: [{ type: "integer" }], additionalItems: false } }] } },
      expected: { paths: { "/x": [{ schema: { prefixItems: [{ type: "integer" }], items: false } }] } },
    },
    { name: "scalars pass through", input: "text", expected: "text" },
  ])("$name", ({ input, expected }) => {
    expect(usePrefixItems(input)).toEqual(expected);
  });

  it("keeps a __proto__ key an ordinary key", () => {
    const input = JSON.parse('{"__proto__": {"items": [1]}}') as object;
    const output = usePrefixItems(input);
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(output, "__proto__")?.value).toEqual({ prefixItems: [1] });
  });
});
