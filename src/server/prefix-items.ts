/**
 * Rewrites draft-07 tuples (`items: [...]` with `additionalItems`) as JSON Schema 2020-12 `prefixItems`, the
 * dialect of OpenAPI 3.1. TypeBox writes tuples the older way, which 3.1 validators reject.
 */
export function usePrefixItems<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => usePrefixItems(item)) as T;
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  const isTuple = Array.isArray(record.items);
  const entries: [string, unknown][] = [];
  for (const [key, child] of Object.entries(record)) {
    if (isTuple && key === "additionalItems") continue;
    if (isTuple && key === "items") {
      entries.push(["prefixItems", usePrefixItems(child)]);
      if (record.additionalItems === false) entries.push(["items", false]);
      continue;
    }
    entries.push([key, usePrefixItems(child)]);
  }
  // fromEntries defines own properties, so no key (not even `__proto__`) can reach the prototype.
  return Object.fromEntries(entries) as T;
}
