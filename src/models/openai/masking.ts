import { validateHeaderName, validateHeaderValue } from "node:http";

// Shared with the client, which must not import node:http.
export { maskURLCredentials } from "../../util.js";

const mask = "***";

/** `Bearer <token>` / `Basic <token>`: the scheme is kept so the message still says what was sent. */
const authorizationPattern = /\b(Bearer|Basic)(\s+)[^\s"',;]+/gi;

// Each kind of secret below is found in two steps: a small regex finds where one may start (a name, a
// prefix), and a sticky regex reads on from there. One alternation per kind did the same, but was too large
// for the ReDoS checker of test/hardening/regex-audit.test.ts to judge.

/**
 * `api_key=…`, `"token": "…"`, `password: …`: the name stays, the value goes. A quoted value's closing quote
 * is optional, so an unterminated one is masked to the end of the text in one pass instead of being retried
 * from every later name (which took O(n²) steps).
 */
const secretName =
  /\b(?:api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|auth[_-]?token|token|secret|password)/gi;
const namedValue = /(["']?\s*[:=]\s*)("[^"]*"?|'[^']*'?|[^\s"'&,;]{4,})/y;

/**
 * Keys with a well-known prefix (OpenAI and most OpenAI-compatible providers `sk-`, Hugging Face `hf_`,
 * Groq `gsk_`, GitHub `ghp_`, Google `AIza`, AWS `AKIA`, Slack `xoxb-`, …), and how many key characters
 * follow at least. The prefix is kept: it tells a person which key was meant without revealing it.
 */
const keyPrefix =
  /\b(?:(?:sk|rk|pk|hf|gsk|xai|pplx|nvapi|csk|r8|gh[pousr]|github_pat|glpat|xox[abprs])[-_]|AIza|AKIA|ASIA)/g;
const MIN_KEY_CHARS_AFTER_DASH = 6;
const MIN_KEY_CHARS_AFTER_CLOUD_PREFIX = 12;
const keyCharacters = /[A-Za-z0-9_-]*/y;

/**
 * JSON Web Tokens: three base64url parts, the first starting with `eyJ` (`{"`). It starts only where no
 * base64url character precedes (not at `\b`, which also holds after each `-` inside one long run and made
 * a scan from every `eyJ` O(n²) on `eyJaaa-eyJaaa-…`).
 */
const jwtStart = /eyJ/g;
const jwtRest = /[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/y;
const BASE64URL_CHARACTER = /^[A-Za-z0-9_-]$/;

/** Runs of token characters long enough to be a key; judged piece by piece in `looksLikeSecret`. */
const longRunPattern = /[A-Za-z0-9+/=_-]{20,}/g;

/**
 * Masks anything in `text` that looks like a credential: bearer tokens, `key=value` pairs, prefixed API keys,
 * JWTs, long hex or base64 runs, and every string in `knownSecrets` (4 characters or longer).
 */
export function maskSecrets(text: string, knownSecrets: readonly string[] = []): string {
  let masked = text;
  // Exact secrets first, longest first, so a key that contains another is masked whole.
  const exact = knownSecrets.filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
  for (const secret of exact) masked = masked.split(secret).join(mask);
  masked = masked.replace(
    authorizationPattern,
    (_match, scheme: string, space: string) => `${scheme}${space}${mask}`,
  );
  masked = replaceEach(masked, secretName, (start, text) => {
    const value = readSticky(namedValue, text, start.index + start[0].length);
    if (value === null) return undefined;
    const separator = value[1] as string;
    const written = value[2] as string;
    const quote = written.startsWith('"') || written.startsWith("'") ? written.charAt(0) : "";
    // An unterminated quote was masked to the end; the mask is closed all the same.
    return {
      end: value.index + value[0].length,
      replacement: `${start[0]}${separator}${quote}${mask}${quote}`,
    };
  });
  masked = replaceEach(masked, jwtStart, (start, text) => {
    if (BASE64URL_CHARACTER.test(text.charAt(start.index - 1))) return undefined;
    const rest = readSticky(jwtRest, text, start.index + start[0].length);
    return rest === null ? undefined : { end: rest.index + rest[0].length, replacement: mask };
  });
  masked = replaceEach(masked, keyPrefix, (start, text) => {
    const prefixEnd = start.index + start[0].length;
    const key = readSticky(keyCharacters, text, prefixEnd) as RegExpExecArray;
    const cloud = !start[0].endsWith("-") && !start[0].endsWith("_");
    if (key[0].length < (cloud ? MIN_KEY_CHARS_AFTER_CLOUD_PREFIX : MIN_KEY_CHARS_AFTER_DASH))
      return undefined;
    return { end: prefixEnd + key[0].length, replacement: `${start[0]}${mask}` };
  });
  return masked.replace(longRunPattern, (run) => (looksLikeSecret(run) ? mask : run));
}

/**
 * A long run is a secret when one of its pieces (split at `-`, `_`, `/`) is 20+ characters mixing letters
 * and digits. That masks hex digests and base64 keys but keeps model ids such as
 * `accounts/fireworks/models/llama-v3p1-70b-instruct` and UUIDs readable.
 */
function looksLikeSecret(run: string): boolean {
  return run
    .split(/[-_/]/)
    .some((piece) => piece.length >= 20 && /[0-9]/.test(piece) && /[A-Za-z]/.test(piece));
}

/**
 * The first header of `headers` whose name or value Node or fetch would refuse, or undefined. Callers name
 * the header in their message and never the value, which is often a key.
 */
export function firstInvalidHeader(headers: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
      new Headers([[name, value]]);
    } catch {
      return name;
    }
  }
  return undefined;
}

/** The match of the sticky `pattern` at `index` of `text`, or null. */
function readSticky(pattern: RegExp, text: string, index: number): RegExpExecArray | null {
  pattern.lastIndex = index;
  return pattern.exec(text);
}

/**
 * `text` with each secret that `read` completes replaced: `start` (a global regex) finds where one may begin,
 * `read` returns where it ends and what stands in for it, or undefined to look on from the next character,
 * as a regex alternation would. O(n) when `read` reads O(1) past a start it refuses, or up to the next one.
 */
function replaceEach(
  text: string,
  start: RegExp,
  read: (start: RegExpExecArray, text: string) => { end: number; replacement: string } | undefined,
): string {
  const parts: string[] = [];
  let copied = 0;
  start.lastIndex = 0;
  for (let match = start.exec(text); match !== null; match = start.exec(text)) {
    const secret = read(match, text);
    if (secret === undefined) {
      start.lastIndex = match.index + 1;
      continue;
    }
    parts.push(text.slice(copied, match.index), secret.replacement);
    copied = secret.end;
    start.lastIndex = secret.end;
  }
  parts.push(text.slice(copied));
  return parts.join("");
}
