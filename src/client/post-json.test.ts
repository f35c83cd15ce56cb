import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  InternalServerError,
  InvalidRequestError,
  RateLimitError,
  TimeoutError,
  UngroundedError,
  UserAbortError,
} from "./errors.js";
import { isRetryable, MAX_RETRY_DELAY_MS, retryDelayMs, sleep, withRetries } from "./post-json.js";

const base = { message: "m" };
const rateLimited = (retryAfter?: number) =>
  new RateLimitError({ ...base, type: "rate_limited", status: 429, retryAfter });

describe("isRetryable", () => {
  it.each([
    ["429", rateLimited(), true],
    ["500", new InternalServerError({ ...base, type: "internal_error", status: 500 }), true],
    ["502", new GatewayError({ ...base, type: "gateway_error", status: 502 }), true],
    ["network", new ConnectionError({ ...base, type: "connection_error", status: 0 }), true],
    ["timeout", new TimeoutError({ ...base, type: "timeout", status: 0 }), true],
    ["400", new InvalidRequestError({ ...base, type: "invalid_request", status: 400 }), false],
    ["401", new AuthenticationError({ ...base, type: "invalid_key", status: 401 }), false],
    ["422", new UngroundedError({ ...base, type: "ungrounded", status: 422 }), false],
    ["abort", new UserAbortError({ ...base, type: "aborted", status: 0 }), false],
    ["a plain Error", new Error("bug"), false],
  ])("%s → %s", (_name, error, expected) => {
    expect(isRetryable(error)).toBe(expected);
  });
});

describe("retryDelayMs", () => {
  it("doubles from 0.5 s to an 8 s cap, jittered over the upper half", () => {
    const low = [0, 1, 2, 3, 4, 5, 6].map((retry) => retryDelayMs(retry, undefined, () => 0));
    const high = [0, 1, 2, 3, 4, 5, 6].map((retry) => retryDelayMs(retry, undefined, () => 0.999_999));
    expect(low).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
    high.forEach((delay, retry) => {
      expect(delay).toBeCloseTo(Math.min(500 * 2 ** retry, MAX_RETRY_DELAY_MS), 0);
    });
  });

  it("waits exactly Retry-After when the service sent one", () => {
    expect(retryDelayMs(0, rateLimited(3), () => 0.5)).toBe(3000);
    expect(retryDelayMs(5, rateLimited(0), () => 0.5)).toBe(0);
  });

  it("gives up on a Retry-After over 60 s", () => {
    expect(retryDelayMs(0, rateLimited(61), () => 0.5)).toBeUndefined();
  });
});

describe("withRetries", () => {
  const policy = (maxRetries: number, waits: number[]) => ({
    maxRetries,
    random: () => 0,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  });

  it("stops after maxRetries retries and throws the last error", async () => {
    const waits: number[] = [];
    let attempts = 0;
    const failing = async () => {
      attempts += 1;
      throw rateLimited();
    };
    await expect(withRetries(failing, policy(3, waits))).rejects.toBeInstanceOf(RateLimitError);
    expect(attempts).toBe(4);
    expect(waits).toEqual([250, 500, 1000]);
  });

  it("returns the first success", async () => {
    const waits: number[] = [];
    let attempts = 0;
    const flaky = async () => {
      attempts += 1;
      if (attempts < 2) throw new ConnectionError({ ...base, type: "connection_error", status: 0 });
      return "ok";
    };
    await expect(withRetries(flaky, policy(2, waits))).resolves.toBe("ok");
    expect(waits).toEqual([250]);
  });

  it("never retries a non-retryable error", async () => {
    let attempts = 0;
    const invalid = async () => {
      attempts += 1;
      throw new InvalidRequestError({ ...base, type: "invalid_request", status: 400 });
    };
    await expect(withRetries(invalid, policy(5, []))).rejects.toBeInstanceOf(InvalidRequestError);
    expect(attempts).toBe(1);
  });
});

describe("sleep", () => {
  // Fake timers are the injected clock: time moves only when the test advances it.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Whether `promise` has settled once pending microtasks have run. */
  async function settled(promise: Promise<unknown>): Promise<boolean> {
    let done = false;
    void promise.then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    return done;
  }

  it("resolves when the signal aborts, with no time passing, and clears its timer", async () => {
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal);
    expect(await settled(waiting)).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    expect(await settled(waiting)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("resolves at once, setting no timer, when the signal has already aborted", async () => {
    expect(await settled(sleep(10_000, AbortSignal.abort()))).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits the given time: not resolved 1 ms before it, resolved at it", async () => {
    const waiting = sleep(30);
    await vi.advanceTimersByTimeAsync(29);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
  });
});
