import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelayMs, createCallDeadline, parseRetryAfter } from "./timing.js";

describe("backoffDelayMs", () => {
  it.each<{ name: string; attempt: number; random: number; expected: number }>([
    { name: "first retry, no jitter", attempt: 0, random: 0, expected: 100 },
    { name: "first retry, full jitter", attempt: 0, random: 0.999, expected: 200 },
    { name: "second retry doubles", attempt: 1, random: 0, expected: 200 },
    { name: "third retry doubles again", attempt: 2, random: 0.5, expected: 600 },
  ])("$name", ({ attempt, random, expected }) => {
    expect(backoffDelayMs(attempt, 200, () => random)).toBe(expected);
  });

  it("stays within [half, whole] of the exponential ceiling", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const delay = backoffDelayMs(attempt, 200, () => r);
          const ceiling = 200 * 2 ** attempt;
          expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
  });
});

describe("createCallDeadline", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const timeoutReason = () => new Error("deadline");

  it("aborts with the timeout reason at the deadline, not before", () => {
    const deadline = createCallDeadline({ timeoutMs: 100, timeoutReason });
    vi.advanceTimersByTime(99);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toEqual(new Error("deadline"));
    deadline.dispose();
  });

  it("aborts with the caller's reason as soon as the caller aborts", () => {
    const caller = new AbortController();
    const deadline = createCallDeadline({ timeoutMs: 100, callerSignal: caller.signal, timeoutReason });
    caller.abort(new Error("caller left"));
    expect(deadline.signal.reason).toEqual(new Error("caller left"));
    deadline.dispose();
  });

  it("starts aborted when the caller's signal already is", () => {
    const deadline = createCallDeadline({
      timeoutMs: 100,
      callerSignal: AbortSignal.abort("gone"),
      timeoutReason,
    });
    expect(deadline.signal.reason).toBe("gone");
    expect(vi.getTimerCount()).toBe(0);
    deadline.dispose();
  });

  it("leaves no timer and no listener behind after dispose", () => {
    const caller = new AbortController();
    const deadline = createCallDeadline({ timeoutMs: 100, callerSignal: caller.signal, timeoutReason });
    expect(vi.getTimerCount()).toBe(1);
    deadline.dispose();
    expect(vi.getTimerCount()).toBe(0);
    caller.abort();
    vi.advanceTimersByTime(1000);
    expect(deadline.signal.aborted).toBe(false);
  });
});

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
