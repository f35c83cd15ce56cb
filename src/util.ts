// Helpers that more than one folder needs, defined once (zod's util.ts, Hono's utils). Pure, no imports.

/** True for a plain JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Work cut into steps: a generator that yields between bounded pieces of work and returns the result. The
 * same code runs straight through in tests and the CLI (`runSteps`) and, in the server, gives the event loop
 * a turn between pieces (`runStepsYielding` in src/models), so `/healthz` and other requests are answered
 * while a large request runs. The local model's ranking and the claim checks are written this way.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs every step at once and returns the result. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}
