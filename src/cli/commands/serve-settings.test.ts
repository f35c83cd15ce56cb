import { describe, expect, it } from "vitest";
import { DEFAULT_SHUTDOWN_DELAY_MS } from "../../limits.js";
import { readServeSettings } from "./serve-settings.js";

describe("VERIFIED_SHUTDOWN_DELAY_MS", () => {
  it("defaults to no delay", () => {
    const outcome = readServeSettings({});
    expect(outcome.ok && outcome.settings.shutdownDelayMs).toBe(DEFAULT_SHUTDOWN_DELAY_MS);
    expect(DEFAULT_SHUTDOWN_DELAY_MS).toBe(0);
  });

  it.each([
    ["0", 0],
    ["5000", 5000],
    ["600000", 600_000],
  ])("reads %s as %i ms", (value, expected) => {
    const outcome = readServeSettings({ VERIFIED_SHUTDOWN_DELAY_MS: value });
    expect(outcome.ok && outcome.settings.shutdownDelayMs).toBe(expected);
  });

  it.each(["-1", "600001", "1.5", "soon"])("refuses %s, naming the variable and the range", (value) => {
    expect(readServeSettings({ VERIFIED_SHUTDOWN_DELAY_MS: value })).toEqual({
      ok: false,
      message: `VERIFIED_SHUTDOWN_DELAY_MS must be a whole number from 0 to 600000; got ${JSON.stringify(value)}.`,
    });
  });
});

describe("VERIFIED_API_KEYS", () => {
  it.each(["", " ", ",", " , ,"])("set to %j (no key) refuses to start rather than run open", (value) => {
    expect(readServeSettings({ VERIFIED_API_KEYS: value })).toEqual({
      ok: false,
      message:
        "VERIFIED_API_KEYS is set but holds no key; give it comma-separated keys, or unset it to run an open service.",
    });
  });

  it("unset runs an open service; set, its keys trimmed", () => {
    const open = readServeSettings({});
    expect(open.ok && open.settings.config.apiKeys).toBeUndefined();
    const keyed = readServeSettings({ VERIFIED_API_KEYS: " k1, ,k2 " });
    expect(keyed.ok && keyed.settings.config.apiKeys).toEqual(["k1", "k2"]);
  });
});
