// Helpers that more than one folder needs, defined once (zod's util.ts, Hono's utils). Pure, no imports.

/** True for a plain JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
