import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./retry-after.js";

const now = Date.parse("2025-01-01T00:00:00Z");

describe("parseRetryAfter", () => {
  it.each<{ name: string; headers: Record<string, string>; expected: number | undefined }>([
    { name: "delta-seconds", headers: { "retry-after": "20" }, expected: 20 },
    { name: "zero", headers: { "retry-after": "0" }, expected: 0 },
    { name: "fractional seconds round up", headers: { "retry-after": "1.2" }, expected: 2 },
    {
      name: "an HTTP date in the future",
      headers: { "retry-after": "Wed, 01 Jan 2025 00:00:30 GMT" },
      expected: 30,
    },
    {
      name: "an HTTP date in the past",
      headers: { "retry-after": "Tue, 31 Dec 2024 23:59:00 GMT" },
      expected: 0,
    },
    { name: "retry-after-ms", headers: { "retry-after-ms": "1500" }, expected: 2 },
    {
      name: "Retry-After wins over retry-after-ms",
      headers: { "retry-after": "7", "retry-after-ms": "1500" },
      expected: 7,
    },
    { name: "garbage", headers: { "retry-after": "soon" }, expected: undefined },
    { name: "a negative number", headers: { "retry-after": "-1" }, expected: undefined },
    {
      name: "garbage falls back to retry-after-ms",
      headers: { "retry-after": "soon", "retry-after-ms": "10" },
      expected: 1,
    },
    { name: "no header", headers: {}, expected: undefined },
  ])("$name", ({ headers, expected }) => {
    expect(parseRetryAfter(new Headers(headers), now)).toBe(expected);
  });
});
