import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BINDING_RULES, renderRuleList } from "../src/core/binding/index.js";
import { documentedRuleList } from "./support/rule-list.js";

const core = fileURLToPath(new URL("../src/core", import.meta.url));

// Every production module of the core, with its text.
function coreModules(folder = core): { file: string; text: string }[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return coreModules(path);
    if (!entry.name.endsWith(".ts") || entry.name.endsWith(".test.ts")) return [];
    return [{ file: path, text: readFileSync(path, "utf8") }];
  });
}

describe("the binding rules in docs and code", () => {
  it("docs/number-checks.md lists exactly the registry's rules (npx tsx test/support/rule-list.ts rewrites it)", () => {
    expect(documentedRuleList()).toBe(renderRuleList());
  });

  it("names every rule of the registry in the code that implements it, and no other", () => {
    const named = new Set(
      coreModules().flatMap(({ text }) => [...text.matchAll(/ruleOn\("(R\d+)"\)/g)].map((match) => match[1])),
    );
    expect([...named].sort()).toEqual(BINDING_RULES.map((rule) => rule.id).sort());
  });
});
