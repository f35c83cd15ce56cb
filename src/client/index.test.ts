import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { errorRegistry } from "../errors/error-registry.js";
import * as client from "./index.js";

const clientDirectory = import.meta.dirname;
const sourceFiles = readdirSync(clientDirectory).filter(
  (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"),
);

/** Every `import … from "x"` / `export … from "x"` specifier of a file, with whether it is type-only. */
function importsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const text = readFileSync(join(clientDirectory, file), "utf8");
  return [...text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gms)].map((match) => ({
    specifier: match[3] ?? "",
    typeOnly: match[2] !== undefined,
  }));
}

describe("the verified-answers/client entry point", () => {
  it("exports the client, its defaults and every error class", () => {
    expect(Object.keys(client).sort()).toEqual(
      [
        "AuthenticationError",
        "ConnectionError",
        "DEFAULT_BASE_URL",
        "DEFAULT_MAX_RETRIES",
        "DEFAULT_TIMEOUT_MS",
        "EVAL_PAGE_SIZE",
        "ExtractionFailedError",
        "GatewayError",
        "GatewayTimeoutError",
        "InsufficientQuotaError",
        "InternalServerError",
        "InvalidRequestError",
        "MethodNotAllowedError",
        "ModelNotFoundError",
        "NoSourcesError",
        "NotFoundError",
        "PayloadTooLargeError",
        "RateLimitError",
        "RequestTimeoutError",
        "ShuttingDownError",
        "SourcesTooLargeError",
        "TimeoutError",
        "TooManyCasesError",
        "UngroundedError",
        "UnsupportedMediaTypeError",
        "UserAbortError",
        "Verified",
        "VerifiedError",
        "evalCaseIdProblem",
        "mergeEvalResults",
        "toWire",
      ].sort(),
    );
  });

  it("has more error classes than the registry has types (plus the three status-0 ones)", () => {
    const errorClasses = Object.values(client).filter(
      (value) => typeof value === "function" && value.prototype instanceof client.VerifiedError,
    );
    expect(errorClasses).toHaveLength(Object.keys(errorRegistry).length + 3);
  });

  it.each(sourceFiles)("%s imports nothing that ties it to Node or the server", (file) => {
    for (const { specifier, typeOnly } of importsOf(file)) {
      expect(specifier.startsWith("node:")).toBe(false);
      expect(specifier).not.toContain("/server/");
      // Outside src/client it may use the registry's types (erased at build time), the shared limits, the API's
      // paths and the pure core (no I/O, enforced by a lint rule), so one definition serves the service and the client.
      if (!specifier.startsWith("./"))
        expect([
          { specifier: "../errors/index.js", typeOnly: true },
          { specifier: "../limits.js", typeOnly: false },
          { specifier: "../api-paths.js", typeOnly: false },
          { specifier: "../util.js", typeOnly: false },
          { specifier: "../core/index.js", typeOnly: false },
        ]).toContainEqual({ specifier, typeOnly });
    }
  });

  it("touches `process` only through `globalThis`, so it loads where there is none", () => {
    for (const file of sourceFiles) {
      const code = readFileSync(join(clientDirectory, file), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
      const unguarded = code.replace(/\(globalThis as \{ process\?: [^)]*\)\.process\b/g, "");
      expect({ file, uses: unguarded.match(/\bprocess\b/g) ?? [] }).toEqual({ file, uses: [] });
    }
  });
});
