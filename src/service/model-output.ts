import type { CandidateClaim, CandidateField } from "../core/index.js";
import { quoteRequestText } from "../errors/index.js";
import { isRecord } from "../util.js";

// The model output contract (documented in docs/api.md): what create and extract expect a model to return.

/** JSON schema sent as `response_format` for create. */
export const claimsOutputSchema = {
  type: "object",
  properties: {
    claims: {
      type: "array",
      items: {
        type: "object",
        properties: {
          claim: { type: "string" },
          quote: { type: "string" },
          source: { type: "string" },
        },
        required: ["claim", "quote", "source"],
        additionalProperties: false,
      },
    },
  },
  required: ["claims"],
  additionalProperties: false,
} as const;

/** JSON schema sent as `response_format` for extract, with one property per requested field. */
export function fieldsOutputSchema(names: readonly string[]): Record<string, unknown> {
  const field = {
    type: "object",
    properties: { value: { type: ["string", "null"] }, source: { type: ["string", "null"] } },
    required: ["value", "source"],
    additionalProperties: false,
  };
  return {
    type: "object",
    properties: {
      fields: {
        type: "object",
        properties: Object.fromEntries(names.map((name) => [name, field])),
        required: [...names],
        additionalProperties: false,
      },
    },
    required: ["fields"],
    additionalProperties: false,
  };
}

/** Parsed model output, or why it has the wrong shape. */
export type ShapeCheck<T> = { ok: true; value: T } | { ok: false; error: string };

/** Checks `{"claims": [{claim, quote, source}]}`; each claim needs string `quote` and `source`. */
export function readClaimsOutput(value: unknown): ShapeCheck<CandidateClaim[]> {
  if (!isRecord(value) || !Array.isArray(value.claims)) {
    return { ok: false, error: 'expected an object with a "claims" array' };
  }
  const claims: CandidateClaim[] = [];
  for (const [index, item] of value.claims.entries()) {
    const claim = readClaimItem(item, index);
    if (!claim.ok) return claim;
    claims.push(claim.value);
  }
  return { ok: true, value: claims };
}

/** Checks one element of `claims` (at `index`, for the message): string `quote` and `source`, optional `claim`. */
export function readClaimItem(item: unknown, index: number): ShapeCheck<CandidateClaim> {
  if (!isRecord(item) || typeof item.quote !== "string" || typeof item.source !== "string") {
    return { ok: false, error: `claims[${index}] needs string "quote" and "source"` };
  }
  if (item.claim !== undefined && item.claim !== null && typeof item.claim !== "string") {
    return { ok: false, error: `claims[${index}].claim must be a string` };
  }
  return {
    ok: true,
    value: {
      claim: typeof item.claim === "string" ? item.claim : undefined,
      quote: item.quote,
      source: item.source,
    },
  };
}

/** Checks `{"fields": {name: {value, source}}}`; absent names read as null, unknown names are ignored. */
export function readFieldsOutput(
  value: unknown,
  names: readonly string[],
): ShapeCheck<Record<string, CandidateField>> {
  if (!isRecord(value) || !isRecord(value.fields))
    return { ok: false, error: 'expected an object with a "fields" object' };
  const output = value.fields;
  const fields: Record<string, CandidateField> = {};
  for (const name of names) {
    const item = Object.hasOwn(output, name) ? output[name] : undefined;
    let field: CandidateField;
    if (item === undefined || item === null) field = { value: null, source: null };
    else if (typeof item === "string") field = { value: item, source: null };
    else if (
      isRecord(item) &&
      (item.value === null || item.value === undefined || typeof item.value === "string")
    ) {
      field = { value: item.value ?? null, source: typeof item.source === "string" ? item.source : null };
    } else
      return {
        ok: false,
        error: `fields.${quoteRequestText(name)} must be {"value": string | null, "source": string | null}`,
      };
    Object.defineProperty(fields, name, {
      value: field,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ok: true, value: fields };
}
