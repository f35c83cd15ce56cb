import { type PreparedSource, prepareSources } from "../prepared-source.js";
import { findQuote } from "../quotes/index.js";
import type { CandidateField, FieldResult, FieldsResult, MatchMode, Range, Source } from "../types.js";

function findValue(
  prepared: ReadonlyMap<string, PreparedSource>,
  value: string,
  preferredSourceId: unknown,
  mode: MatchMode,
): { source: PreparedSource; range: Range } | null {
  const preferred = typeof preferredSourceId === "string" ? prepared.get(preferredSourceId) : undefined;
  if (preferred !== undefined) {
    const range = findQuote(preferred, value, mode);
    if (range !== null) return { source: preferred, range };
  }
  for (const source of prepared.values()) {
    if (source === preferred) continue;
    const range = findQuote(source, value, mode);
    if (range !== null) return { source, range };
  }
  return null;
}

/**
 * Checks extracted field values: each is grounded when it matches in its named source, else in any source
 * in request order; the reported value is the source's own text at the range.
 */
export function verifyFields(
  sources: readonly Source[] | ReadonlyMap<string, PreparedSource>,
  fields: Readonly<Record<string, CandidateField | null | undefined>>,
  options: { mode?: MatchMode | undefined } = {},
): FieldsResult {
  const prepared = Array.isArray(sources)
    ? prepareSources(sources)
    : (sources as ReadonlyMap<string, PreparedSource>);
  const mode = options.mode ?? "strict";
  const results: Record<string, FieldResult> = {};
  let grounded = 0;
  const names = Object.keys(fields);
  for (const name of names) {
    const candidate = fields[name];
    const value = candidate?.value;
    const found =
      typeof value === "string" && value !== "" ? findValue(prepared, value, candidate?.source, mode) : null;
    const result: FieldResult =
      found === null
        ? { value: null, grounded: false, reason: "not_found" }
        : {
            value: found.source.text.slice(found.range[0], found.range[1]),
            source: found.source.id,
            range: found.range,
            grounded: true,
          };
    if (result.grounded) grounded += 1;
    // defineProperty: a field named `__proto__` must stay an ordinary key.
    Object.defineProperty(results, name, {
      value: result,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { fields: results, coverage: names.length === 0 ? 0 : grounded / names.length };
}
