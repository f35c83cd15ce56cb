import { describe, expect, it } from "vitest";
import { shouldUseColor } from "./color.js";

describe("shouldUseColor", () => {
  it.each([
    { name: "a terminal", isTTY: true, env: {}, color: true },
    { name: "a pipe", isTTY: false, env: {}, color: false },
    { name: "NO_COLOR on a terminal", isTTY: true, env: { NO_COLOR: "1" }, color: false },
    { name: "an empty NO_COLOR (ignored)", isTTY: true, env: { NO_COLOR: "" }, color: true },
    { name: "FORCE_COLOR on a pipe", isTTY: false, env: { FORCE_COLOR: "1" }, color: true },
    { name: "FORCE_COLOR=0 on a pipe", isTTY: false, env: { FORCE_COLOR: "0" }, color: false },
    {
      name: "NO_COLOR over FORCE_COLOR",
      isTTY: false,
      env: { NO_COLOR: "1", FORCE_COLOR: "1" },
      color: false,
    },
  ])("$name", ({ isTTY, env, color }) => {
    expect(shouldUseColor({ isTTY }, env)).toBe(color);
  });
});
