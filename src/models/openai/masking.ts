import { validateHeaderName, validateHeaderValue } from "node:http";

// Shared with the client, which must not import node:http.
export { maskURLCredentials } from "../../util.js";

const mask = "***";

/** `Bearer <token>` / `Basic <token>`: the scheme is kept so the message still says what was sent. */
const authorizationPattern = /\b(Bearer|Basic)(\s+)[^\s"',;]+/gi;

/**
 * `api_key=…`, `"token": "…"`, `password: …`: the name stays, the value goes. A quoted value's closing quote
 * is optional, so an unterminated one is masked to the end of the text in one pass instead of being retried
 * from every later name (which took O(n²) steps).
 */
const namedValuePattern =
  /\b(api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|auth[_-]?token|token|secret|password)(["']?\s*[:=]\s*)("[^"]*"?|'[^']*'?|[^\s"'&,;]{4,})/gi;

/**
 * Keys with a well-known prefix (OpenAI and most OpenAI-compatible providers `sk-`, Hugging Face `hf_`,
 * Groq `gsk_`, GitHub `ghp_`, Google `AIza`, AWS `AKIA`, Slack `xoxb-`, …). The prefix is kept: it tells a
 * person which key was meant without revealing it.
 */
const prefixedKeyPattern =
  /\b(sk|rk|pk|hf|gsk|xai|pplx|nvapi|csk|r8|gh[pousr]|github_pat|glpat|xox[abprs])([-_])[A-Za-z0-9_-]{6,}|\b(AIza|AKIA|ASIA)[0-9A-Za-z_-]{12,}/g;

/**
 * JSON Web Tokens: three base64url parts, the first starting with `eyJ` (`{"`). It starts only where no
 * base64url character precedes (not at `\b`, which also holds after each `-` inside one long run and made
 * the pattern O(n²) on `eyJaaa-eyJaaa-…`).
 */
const jwtPattern = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

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
  return masked
    .replace(authorizationPattern, (_match, scheme: string, space: string) => `${scheme}${space}${mask}`)
    .replace(namedValuePattern, (_match, name: string, separator: string, value: string) => {
      const quote = value.startsWith('"') || value.startsWith("'") ? value.charAt(0) : "";
      // An unterminated quote was masked to the end; the mask is closed all the same.
      return `${name}${separator}${quote}${mask}${quote}`;
    })
    .replace(jwtPattern, mask)
    .replace(
      prefixedKeyPattern,
      (_match, prefix: string | undefined, dash: string | undefined, cloud?: string) =>
        cloud !== undefined ? `${cloud}${mask}` : `${prefix}${dash}${mask}`,
    )
    .replace(longRunPattern, (run) => (looksLikeSecret(run) ? mask : run));
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
