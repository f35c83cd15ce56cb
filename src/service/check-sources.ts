import { findDuplicateSourceId, type Source } from "../core/index.js";
import { ServiceError } from "../errors/index.js";

/** Throws `no_sources` or `sources_too_large` for sources an operation cannot use. */
export function checkSources(sources: readonly Source[], budget: number, param = "sources"): void {
  if (sources.length === 0) {
    throw new ServiceError("no_sources", `"${param}" is empty; supply at least one source.`, { param });
  }
  let total = 0;
  for (const source of sources) total += source.text.length;
  if (total > budget) {
    throw new ServiceError(
      "sources_too_large",
      `"${param}" totals ${total.toLocaleString("en-US")} characters; the limit is ${budget.toLocaleString("en-US")}. Send fewer or shorter sources.`,
      { param },
    );
  }
}

/** Throws `invalid_request` naming the first repeated source id. */
export function checkSourceIds(sources: readonly { id: string }[], param = "sources"): void {
  const index = findDuplicateSourceId(sources);
  if (index >= 0) {
    const name = `${param}[${index}].id`;
    throw new ServiceError("invalid_request", `"${name}" repeats an earlier source id; ids must be unique.`, {
      param: name,
    });
  }
}
