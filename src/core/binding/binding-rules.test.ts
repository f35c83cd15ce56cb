import { describe, expect, it } from "vitest";
import type { Range } from "../types.js";
import { withRulesOff } from "../wording/index.js";
import { BINDING_PASSES, BINDING_RULES, type BindingRule, ROW_GUARANTEES } from "./binding-rules.js";
import { checkRowNumbers } from "./row-check.js";

// Each example on a fresh source: the label index and header stems are built per source, with the rules
// then in force.
function keeps(rule: Pick<BindingRule, "table" | "quote"> & { id: string }, claim: string): boolean {
  const start = rule.table.indexOf(rule.quote);
  if (start < 0) throw new Error(`${rule.id}: quote not in its table`);
  const range: Range = [start, start + rule.quote.length];
  return checkRowNumbers(claim, { id: "s", text: rule.table }, range);
}

describe("the binding rules registry", () => {
  it("lists each id once, in ascending order, each rule with a kept and a dropped example and a known pass", () => {
    // A removed rule's id is never reused: ids stay what the docs and the history call them.
    const numbers = BINDING_RULES.map((rule) => Number(rule.id.slice(1)));
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
    for (const rule of BINDING_RULES) {
      expect([rule.id, BINDING_PASSES.includes(rule.pass)]).toEqual([rule.id, true]);
      expect([rule.id, rule.examples.some((each) => each.keep)]).toEqual([rule.id, true]);
      expect([rule.id, rule.examples.some((each) => !each.keep)]).toEqual([rule.id, true]);
      expect([rule.id, rule.statement.split(/[.!?] /).length]).toEqual([rule.id, 1]);
    }
  });

  it.each(BINDING_RULES.map((rule) => [rule.id, rule] as const))(
    "%s: its examples keep and drop as stated",
    (_, rule) => {
      for (const { claim, keep } of rule.examples) expect([claim, keeps(rule, claim)]).toEqual([claim, keep]);
    },
  );

  it.each(BINDING_RULES.map((rule) => [rule.id, rule] as const))(
    "%s: turned off, one of its examples changes verdict",
    (_, rule) => {
      const flipped = withRulesOff([rule.id], () =>
        rule.examples.filter(({ claim, keep }) => keeps(rule, claim) !== keep).map(({ claim }) => claim),
      );
      expect(flipped.length).toBeGreaterThan(0);
    },
  );

  it.each(ROW_GUARANTEES.map((guarantee) => [guarantee.id, guarantee] as const))(
    "%s: its examples keep and drop as stated, with every rule on",
    (_, guarantee) => {
      for (const { claim, keep } of guarantee.examples)
        expect([claim, keeps(guarantee, claim)]).toEqual([claim, keep]);
    },
  );
});
