import { ServiceError } from "../errors/service-error.js";
import { findDuplicateSourceId } from "../wire/find-duplicate-source-id.js";

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
