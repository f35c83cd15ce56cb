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

/** Runs every step at once and returns the result; what the steps yield (nothing, or a pause mark) is ignored. */
export function runSteps<T>(steps: Generator<unknown, T, void>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/**
 * `text` without the run of `characters` that ends it (`trimTrailing("a//", "/")` is `"a"`). O(n) and no
 * regex: `/\/+$/` and its kind retry from every character of a run that does not end the text (O(n²)).
 */
export function trimTrailing(text: string, characters: string): string {
  let end = text.length;
  while (end > 0 && characters.includes(text.charAt(end - 1))) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

/** True when `index` falls between the two halves of a surrogate pair in `text`. */
export function splitsSurrogatePair(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const high = text.charCodeAt(index - 1);
  const low = text.charCodeAt(index);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/**
 * A URL as it may be printed: `user:password@` (or a lone user) after the scheme becomes `***@`. Reads text
 * that need not parse as a URL (a message quotes a wrong one too); O(n), no regex.
 */
export function maskURLCredentials(url: string): string {
  const schemeEnd = url.indexOf("://");
  if (schemeEnd < 0) return url;
  const authorityStart = schemeEnd + 3;
  let authorityEnd = url.length;
  for (const stop of ["/", "?", "#"]) {
    const at = url.indexOf(stop, authorityStart);
    if (at >= 0 && at < authorityEnd) authorityEnd = at;
  }
  // The last `@` of the authority ends the user info, as URL parsers read it.
  const userInfoEnd = url.lastIndexOf("@", authorityEnd - 1);
  if (userInfoEnd < authorityStart) return url;
  return `${url.slice(0, authorityStart)}***${url.slice(userInfoEnd)}`;
}
