import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskSecrets } from "./masking.js";

describe("maskSecrets", () => {
  it.each<{ name: string; text: string; expected: string }>([
    {
      name: "an OpenAI key in the gateway's own message",
      text: "Incorrect API key provided: sk-proj-AbCdEf1234567890. You can find your API key at …",
      expected: "Incorrect API key provided: sk-***. You can find your API key at …",
    },
    { name: "a short sk- key", text: "key sk-test-1234 refused", expected: "key sk-*** refused" },
    {
      name: "a bearer header",
      text: "sent Authorization: Bearer abc.def-123",
      expected: "sent Authorization: Bearer ***",
    },
    { name: "a basic header", text: "Basic dXNlcjpwYXNz rejected", expected: "Basic *** rejected" },
    {
      name: "a query parameter",
      text: "GET /v1/models?api_key=hunter22&x=1",
      expected: "GET /v1/models?api_key=***&x=1",
    },
    { name: "a JSON field", text: '{"password": "correct horse"}', expected: '{"password": "***"}' },
    { name: "a quoted value", text: "secret='abc def'", expected: "secret='***'" },
    { name: "a Hugging Face token", text: "hf_AbCdEfGhIjKlMnOp is invalid", expected: "hf_*** is invalid" },
    { name: "a Groq key", text: "gsk_0123456789abcdef", expected: "gsk_***" },
    { name: "a Google key", text: "AIzaSyA1234567890abcdefgh", expected: "AIza***" },
    { name: "an AWS key id", text: "AKIAIOSFODNN7EXAMPLE", expected: "AKIA***" },
    { name: "a GitHub token", text: "ghp_1234567890abcdefABCDEF", expected: "ghp_***" },
    {
      name: "a JWT",
      text: "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl expired",
      expected: "token *** expired",
    },
    {
      name: "a long hex run",
      text: "virtual key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 has no budget",
      expected: "virtual key *** has no budget",
    },
    {
      name: "a long base64 run",
      text: "key Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA== is revoked",
      expected: "key *** is revoked",
    },
    {
      name: "model ids with long dashed names stay readable",
      text: "model accounts/fireworks/models/llama-v3p1-70b-instruct and meta-llama/Llama-3.1-70B-Instruct-Turbo",
      expected:
        "model accounts/fireworks/models/llama-v3p1-70b-instruct and meta-llama/Llama-3.1-70B-Instruct-Turbo",
    },
    {
      name: "UUIDs and plain prose stay readable",
      text: "request 123e4567-e89b-12d3-a456-426614174000 failed: the upstream is overloaded, retry",
      expected: "request 123e4567-e89b-12d3-a456-426614174000 failed: the upstream is overloaded, retry",
    },
    {
      name: "max_tokens is not a token",
      text: "max_tokens: 4096 is too large",
      expected: "max_tokens: 4096 is too large",
    },
  ])("masks $name", ({ text, expected }) => {
    expect(maskSecrets(text)).toBe(expected);
  });

  it("masks known secrets exactly, even short or unusual ones", () => {
    expect(
      maskSecrets("the key test-key-7 and test-key-77 were refused", ["test-key-7", "test-key-77"]),
    ).toBe("the key *** and *** were refused");
  });

  it("ignores known secrets shorter than 4 characters so it does not shred ordinary words", () => {
    expect(maskSecrets("a bad request", ["a", "", "bad"])).toBe("a bad request");
  });
});

describe("maskSecrets properties", () => {
  it("never lets a known key through, wherever it sits in the text", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.stringMatching(/^[A-Za-z0-9_-]{4,40}$/),
        fc.string(),
        (before, key, after) => {
          expect(maskSecrets(`${before}${key}${after}`, [key])).not.toContain(key);
        },
      ),
    );
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-ascii" }), (text) => {
        const once = maskSecrets(text);
        expect(maskSecrets(once)).toBe(once);
      }),
    );
  });
});

// The alternation regexes the two-step scans replaced (issue 38): too large for the ReDoS checker of
// test/hardening/regex-audit.test.ts to judge (or, for the JWT, a look-behind it cannot read). They stay
// here as the oracle of the scans.
const OLD_NAMED_VALUE =
  /\b(api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|auth[_-]?token|token|secret|password)(["']?\s*[:=]\s*)("[^"]*"?|'[^']*'?|[^\s"'&,;]{4,})/gi;
const OLD_PREFIXED_KEY =
  /\b(sk|rk|pk|hf|gsk|xai|pplx|nvapi|csk|r8|gh[pousr]|github_pat|glpat|xox[abprs])([-_])[A-Za-z0-9_-]{6,}|\b(AIza|AKIA|ASIA)[0-9A-Za-z_-]{12,}/g;
const OLD_JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

function oldMaskSecrets(text: string): string {
  return text
    .replace(
      /\b(Bearer|Basic)(\s+)[^\s"',;]+/gi,
      (_match, scheme: string, space: string) => `${scheme}${space}***`,
    )
    .replace(OLD_NAMED_VALUE, (_match, name: string, separator: string, value: string) => {
      const quote = value.startsWith('"') || value.startsWith("'") ? value.charAt(0) : "";
      return `${name}${separator}${quote}***${quote}`;
    })
    .replace(OLD_JWT, "***")
    .replace(
      OLD_PREFIXED_KEY,
      (_match, prefix: string | undefined, dash: string | undefined, cloud?: string) =>
        cloud !== undefined ? `${cloud}***` : `${prefix}${dash}***`,
    )
    .replace(/[A-Za-z0-9+/=_-]{20,}/g, (run) => (maskSecrets(run) === run ? run : "***"));
}

describe("maskSecrets, two-step scans", () => {
  it("masks what the alternation regexes it replaced masked, on generated text", () => {
    const start = fc.constantFrom(
      "api_key",
      "API-KEY",
      "apikey",
      "x-api-key",
      "access_token",
      "csrf_token",
      "Token",
      "secret",
      "tokens",
      "sk-",
      "gsk_",
      "github_pat_",
      "ghp_",
      "xoxb-",
      "sk",
      "rk=",
      "AIza",
      "AKIA",
      "ASIAx",
      "eyJ",
      "a-eyJ",
      "",
    );
    const separator = fc.constantFrom("", "=", ": ", '": ', "' = ", " :", "\t=\t", ".", "-");
    const value = fc.string({ unit: fc.constantFrom(..."aB1_-.'\" ,;&="), maxLength: 16 });
    const secret = fc
      .tuple(start, separator, value, fc.constantFrom("", " ", "\n", "."))
      .map((parts) => parts.join(""));
    const text = fc.array(secret, { maxLength: 4 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, (sample) => {
        expect(maskSecrets(sample)).toBe(oldMaskSecrets(sample));
      }),
      { seed: 38, numRuns: 3000 },
    );
  });

  it.each([
    ["names followed by spaces", "token   ".repeat(125_000), "token   ".repeat(125_000)],
    ["dashed prefixes", "sk-ab ".repeat(160_000), "sk-ab ".repeat(160_000)],
    ["JWT starts inside one run", `${"eyJaaaa-".repeat(125_000)}.bbbb.c`, "***"],
    ["an unterminated quoted value", `password="${"x".repeat(1_000_000)}`, 'password="***"'],
  ])("reads 1 MB of %s in one pass", (_name, text, masked) => {
    // Each start is refused within a bounded read, or its secret is consumed: O(text).
    expect(maskSecrets(text)).toBe(masked);
  });
});
