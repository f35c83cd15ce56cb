import { describe, expect, it } from "vitest";
import { getOrMake, listOfLength } from "./lists.js";

describe("listOfLength", () => {
  it.each([0, 1, 256, 257, 10_000])(
    "filled by index in order, holds what was put, at %i entries",
    (length) => {
      const list = listOfLength<number>(length);
      for (let index = 0; index < length; index += 1) list[index] = index * 2;
      expect(list).toEqual(Array.from({ length }, (_, index) => index * 2));
    },
  );

  it("a short list starts empty, a long one at its length", () => {
    expect(listOfLength(256)).toHaveLength(0);
    expect(listOfLength(257)).toHaveLength(257);
  });
});

describe("getOrMake", () => {
  it("makes a key's value on the first ask only and keeps it in the map", () => {
    const map = new Map<string, string[]>();
    const made: string[] = [];
    const make = (key: string): string[] => {
      made.push(key);
      return [key];
    };
    const first = getOrMake(map, "a", make);
    expect(getOrMake(map, "a", make)).toBe(first);
    expect(getOrMake(map, "b", make)).toEqual(["b"]);
    expect(made).toEqual(["a", "b"]);
    expect(map.get("a")).toBe(first);
  });
});
