// The one place where the client converts between TypeScript's camelCase and the wire's snake_case. Every
// request body goes through `toWire` and every response body through `fromWire`; no method renames a field
// by hand. Only keys are renamed, never values, so claims, quotes, message contents and source ids and texts
// pass through untouched.

/**
 * Keys whose value is a map keyed by the caller's own names: extract's request `schema` and result `fields`,
 * and in a chat completion's body a JSON schema's `properties` and OpenAI's `metadata`.
 * The keys of these maps are user data and are kept verbatim; the values under them are still structural.
 */
const userKeyedMaps: ReadonlySet<string> = new Set(["schema", "fields", "properties", "metadata"]);

/** `maxTokens` → `max_tokens`. */
export function snakeCaseKey(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `max_tokens` → `maxTokens`. */
export function camelCaseKey(key: string): string {
  // No lookbehind (older Safari lacks it): an underscore at the very start is kept as it is.
  return key.replace(/_([a-z0-9])/g, (match, letter: string, offset: number) =>
    offset === 0 ? match : letter.toUpperCase(),
  );
}

/** Renames every structural key of a JSON-like value with `rename`, recursing through objects and arrays. */
export function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  return renameWithin(value, rename, false);
}

/** A request body in camelCase → the wire's snake_case. */
export function toWire(value: unknown): unknown {
  return renameKeys(value, snakeCaseKey);
}

/** A response body in the wire's snake_case → camelCase. */
export function fromWire(value: unknown): unknown {
  return renameKeys(value, camelCaseKey);
}

function renameWithin(value: unknown, rename: (key: string) => string, keepKeys: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => renameWithin(item, rename, false));
  if (!isPlainObject(value)) return value;
  // Object.fromEntries defines properties, so a user field named "__proto__" stays an ordinary key.
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) =>
      keepKeys
        ? [key, renameWithin(child, rename, false)]
        : [rename(key), renameWithin(child, rename, userKeyedMaps.has(key))],
    ),
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
