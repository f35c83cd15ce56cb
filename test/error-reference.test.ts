import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { errorRegistry } from "../src/errors/error-registry.js";

// The registry and the error reference (docs/errors.md) must agree (src/client/error-from-response.test.ts checks
// that every registry type has its own client error class).
const errorsPage = readFileSync(new URL("../docs/errors.md", import.meta.url), "utf8");
const documented = [...errorsPage.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((match) => ({
  type: match[1],
  status: Number(match[2]),
}));

describe("error reference", () => {
  it("docs/errors.md documents exactly the registry's types with their statuses, in order of status", () => {
    const registered = Object.entries(errorRegistry)
      .map(([type, entry]) => ({ type, status: entry.status }))
      .sort((a, b) => a.status - b.status);
    expect(documented).toEqual(registered);
  });
});
