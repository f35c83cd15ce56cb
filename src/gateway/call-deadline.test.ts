import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCallDeadline } from "./call-deadline.js";

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
