/**
 * A row-binding rule's id (`R1`, `R2`, …, see the registry in `src/core/binding/binding-rules.ts`): the code
 * that implements a rule names it with `ruleOn("R12")`.
 */
export type RuleId = `R${number}`;

// Empty in service: every rule applies. Only the registry's test and the table-claims bench fill it, to
// measure what a rule does by turning it off, and `withRulesOff` empties it again before it returns.
const off = new Set<RuleId>();

/** True unless the rule is turned off by `withRulesOff` (always true in service). */
export function ruleOn(id: RuleId): boolean {
  return off.size === 0 || !off.has(id);
}

/**
 * Runs `run` with the rules `ids` turned off, then turns them on again. For the registry's test and the
 * benches that measure each rule's effect; the service never calls it.
 */
export function withRulesOff<T>(ids: readonly RuleId[], run: () => T): T {
  for (const id of ids) off.add(id);
  try {
    return run();
  } finally {
    for (const id of ids) off.delete(id);
  }
}
