import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { errorRegistry } from "../src/errors/error-registry.js";

// The registry and the README's error reference must agree (src/client/error-from-response.test.ts checks
// that every registry type has its own client error class).
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const errorsSection = readme.slice(readme.indexOf("### Errors"), readme.indexOf("### Configuration"));
const documented = [...errorsSection.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((match) => ({
  type: match[1],
  status: Number(match[2]),
}));

describe("error reference", () => {
  it("the README documents exactly the registry's types with their statuses, in order of status", () => {
    const registered = Object.entries(errorRegistry)
      .map(([type, entry]) => ({ type, status: entry.status }))
      .sort((a, b) => a.status - b.status);
    expect(documented).toEqual(registered);
  });
});
