import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { startLine, startWarnings } from "../src/cli/commands/serve.js";
import { parseServeConfigFile, readConfigFileText } from "../src/cli/commands/serve-config-file.js";
import { readServeSettings } from "../src/cli/commands/serve-settings.js";
import { runCli } from "../src/cli/run-cli.js";
import { MAX_CONFIG_FILE_BYTES } from "../src/limits.js";

// `verified serve --config`: the file's checks name file, line and column; the start line, the start-up
// warnings and `serve --help`'s list of environment-only settings.

const defaults = { timeoutMs: 120_000 };

function parse(text: string, env: Record<string, string> = {}) {
  return parseServeConfigFile(text, "verified.config.json", env, defaults);
}

const valid = `{
  // OpenAI for gpt-*, a local Ollama for ollama/*.
  "gateways": {
    "openai": { "base_url": "https://api.openai.com/v1", "api_key_env": "OPENAI_API_KEY" },
    "ollama": { "base_url": "http://127.0.0.1:11434/v1", "auth": "none", "timeout_ms": 300000 },
  },
  "routes": [
    { "model": "gpt-4o-mini", "gateway": "openai" },
    { "model": "ollama/*", "gateway": "ollama", "strip_prefix": true },
  ],
}`;

/** Collects what is written to it. */
function collector(): Writable & { text(): string } {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return Object.assign(stream, { text: () => text });
}

/** Runs `serve --config file` in process (it ends before listening when the file is refused). */
async function serveWithConfig(file: string) {
  const stdout = collector();
  const stderr = collector();
  const code = await runCli(["serve", "--config", file, "--port", "0"], {
    stdin: new PassThrough(),
    stdout,
    stderr,
    env: {},
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe("the serve config file", () => {
  it("reads gateways with their defaults and routes in order", () => {
    const outcome = parse(valid, { OPENAI_API_KEY: "sk-test" });
    expect(outcome).toEqual({
      ok: true,
      warnings: [],
      gateways: [
        {
          name: "openai",
          baseURL: "https://api.openai.com/v1",
          apiKeyEnv: "OPENAI_API_KEY",
          apiKey: "sk-test",
          authHeader: "bearer",
          headers: {},
          query: {},
          tokenParameter: "max_tokens",
          structuredOutput: "json_schema",
          timeoutMs: 120_000,
        },
        {
          name: "ollama",
          baseURL: "http://127.0.0.1:11434/v1",
          apiKeyEnv: undefined,
          apiKey: undefined,
          authHeader: "none",
          headers: {},
          query: {},
          tokenParameter: "max_tokens",
          structuredOutput: "json_schema",
          timeoutMs: 300_000,
        },
      ],
      routes: [
        { model: "gpt-4o-mini", gateway: "openai", stripPrefix: false },
        { model: "ollama/*", gateway: "ollama", stripPrefix: true },
      ],
    });
  });

  it("warns, without failing, when a key variable is unset", () => {
    const outcome = parse(valid);
    expect(outcome.ok && outcome.warnings).toEqual([
      'gateway "openai" reads its key from OPENAI_API_KEY, which is not set: its models will be refused until it is.',
    ]);
  });

  it.each([
    {
      name: "a JSON syntax error",
      text: '{\n  "gateways": {\n    "a": { "base_url": "http://x" }\n  "routes": []\n}',
      message: "verified.config.json:4:3: not valid JSON (comma expected).",
    },
    {
      name: "a wrong type",
      text: '{\n  "gateways": { "a": { "base_url": "http://x", "timeout_ms": "fast" } },\n  "routes": [{ "model": "m", "gateway": "a" }]\n}',
      message: 'verified.config.json:2:48: "gateways.a.timeout_ms" must be a whole number; got "fast".',
    },
    {
      name: "an unknown field",
      text: '{\n  "gateways": { "a": { "base_url": "http://x" } },\n  "routes": [\n    { "model": "m", "gateway": "a", "strip": true }\n  ]\n}',
      message:
        'verified.config.json:4:37: "routes[0].strip" is not a known field. Known fields: model, gateway, strip_prefix.',
    },
    {
      name: "a missing base_url",
      text: '{\n  "gateways": {\n    "a": { "auth": "none" }\n  },\n  "routes": [{ "model": "m", "gateway": "a" }]\n}',
      message: 'verified.config.json:3:5: "gateways.a.base_url" is required.',
    },
    {
      name: "a URL that is not http",
      text: '{\n  "gateways": { "a": { "base_url": "ftp://x" } },\n  "routes": [{ "model": "m", "gateway": "a" }]\n}',
      message:
        'verified.config.json:2:24: "gateways.a.base_url" must be an http:// or https:// URL; got "ftp://x".',
    },
    {
      name: "a route to an undeclared gateway",
      text: '{\n  "gateways": { "a": { "base_url": "http://x" } },\n  "routes": [\n    { "model": "m", "gateway": "b" }\n  ]\n}',
      message:
        'verified.config.json:4:21: "routes[0].gateway" names gateway "b", which is not declared; declared: a.',
    },
    {
      name: "a star inside a pattern",
      text: '{\n  "gateways": { "a": { "base_url": "http://x" } },\n  "routes": [{ "model": "gpt-*-mini", "gateway": "a" }]\n}',
      message:
        'verified.config.json:3:16: "routes[0].model" may hold "*" only at its end ("ollama/*"); got "gpt-*-mini".',
    },
    {
      name: "strip_prefix on an exact id",
      text: '{\n  "gateways": { "a": { "base_url": "http://x" } },\n  "routes": [{ "model": "m", "gateway": "a", "strip_prefix": true }]\n}',
      message:
        'verified.config.json:3:46: "routes[0].strip_prefix" needs a prefix pattern such as "ollama/*"; got "m".',
    },
    {
      name: "a route for the local model",
      text: '{\n  "gateways": { "a": { "base_url": "http://x" } },\n  "routes": [{ "model": "local", "gateway": "a" }]\n}',
      message: 'verified.config.json:3:16: "local" is the built-in local model and cannot be routed.',
    },
    {
      name: "a repeated model",
      text: '{\n  "gateways": { "a": { "base_url": "http://x" } },\n  "routes": [\n    { "model": "m", "gateway": "a" },\n    { "model": "m", "gateway": "a" }\n  ]\n}',
      message: 'verified.config.json:5:7: "routes[1].model" repeats "m".',
    },
    {
      name: "an unset header variable",
      text: '{\n  "gateways": {\n    "a": { "base_url": "http://x", "headers_env": { "x-portkey-api-key": "PORTKEY_API_KEY" } }\n  },\n  "routes": [{ "model": "m", "gateway": "a" }]\n}',
      message:
        'verified.config.json:3:53: header "x-portkey-api-key" of gateway "a" is read from PORTKEY_API_KEY, which is not set.',
    },
    {
      name: "an empty file",
      text: "  \n",
      message: "verified.config.json:2:1: not valid JSON (value expected).",
    },
  ])("names the line and column of $name", ({ text, message }) => {
    expect(parse(text)).toEqual({ ok: false, message });
  });

  it("accepts the example of docs/configuration.md, whose error example is the one the checks print", () => {
    const page = readFileSync(new URL("../docs/configuration.md", import.meta.url), "utf8");
    const start = page.indexOf("```jsonc\n") + "```jsonc\n".length;
    const example = page.slice(start, page.indexOf("\n```", start));
    const outcome = parse(example, { OPENAI_API_KEY: "sk-test" });
    expect(outcome.ok && outcome.routes.map((route) => route.model)).toEqual([
      "gpt-4o-mini",
      "gpt-4.1",
      "ollama/*",
    ]);
    const unknownField = parse(
      '{\n  "gateways": { "a": { "base_url": "http://x" } },\n  "routes": [\n    { "model": "m", "gateway": "a", "strip": true }\n  ]\n}',
    );
    expect(unknownField.ok).toBe(false);
    if (!unknownField.ok) expect(page).toContain(`verified serve: ${unknownField.message}`);
  });

  it("cannot be combined with VERIFIED_GATEWAY_URL", () => {
    const outcome = readServeSettings(
      { VERIFIED_GATEWAY_URL: "http://127.0.0.1:1/v1" },
      {},
      { path: "verified.config.json", text: valid },
    );
    expect(outcome).toEqual({
      ok: false,
      message:
        "VERIFIED_GATEWAY_URL and a config file are both given; declare every gateway in verified.config.json.",
    });
  });

  it("makes `serve` exit 2 with one line naming the place, not a stack", async () => {
    const folder = mkdtempSync(join(tmpdir(), "verified-config-"));
    const file = join(folder, "verified.config.json");
    writeFileSync(file, '{\n  "gateways": {},\n  "routes": []\n}\n');
    expect(await serveWithConfig(file)).toEqual({
      code: 2,
      stdout: "",
      stderr: `verified serve: ${file}:2:3: "gateways" must have 1 to any number of fields; got 0.\n`,
    });
  });

  it("makes `serve` exit 2 when the file cannot be read", async () => {
    expect(await serveWithConfig("/nonexistent/verified.config.json")).toEqual({
      code: 2,
      stdout: "",
      stderr: "verified serve: cannot read the config file /nonexistent/verified.config.json: ENOENT\n",
    });
  });
});

describe("the serve config file's kind and size", () => {
  it("refuses a FIFO without waiting for a writer: exit 2 naming it", async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), "verified-config-")), "config.fifo");
    execFileSync("mkfifo", [fifo]);
    expect(await serveWithConfig(fifo)).toEqual({
      code: 2,
      stdout: "",
      stderr: `verified serve: the config file ${fifo} is not a regular file; give the path of a JSON file.\n`,
    });
  });

  it("refuses a device such as /dev/zero", async () => {
    expect(await serveWithConfig("/dev/zero")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "verified serve: the config file /dev/zero is not a regular file; give the path of a JSON file.\n",
    });
  });

  it("refuses a file one byte over MAX_CONFIG_FILE_BYTES, and reads one at the limit", async () => {
    const folder = mkdtempSync(join(tmpdir(), "verified-config-"));
    const over = join(folder, "over.json");
    writeFileSync(over, " ".repeat(MAX_CONFIG_FILE_BYTES + 1));
    expect(await serveWithConfig(over)).toEqual({
      code: 2,
      stdout: "",
      stderr: `verified serve: the config file ${over} is larger than 1,048,576 bytes, the limit.\n`,
    });
    const valid =
      '{"gateways": {"a": {"base_url": "http://127.0.0.1:9/v1"}}, "routes": [{"model": "*", "gateway": "a"}]}';
    const atLimit = join(folder, "at-limit.json");
    writeFileSync(atLimit, valid.padEnd(MAX_CONFIG_FILE_BYTES, " "));
    const read = readConfigFileText(atLimit);
    expect(read !== undefined && "text" in read && read.text.length).toBe(MAX_CONFIG_FILE_BYTES);
  });
});

describe("serve's start line and warnings", () => {
  const settingsFor = (env: Record<string, string>, text?: string) => {
    const outcome = readServeSettings(
      env,
      {},
      text === undefined ? undefined : { path: "verified.config.json", text },
    );
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.settings;
  };

  it("says local model only when no gateway is configured", () => {
    expect(startLine(settingsFor({}), 8787)).toBe(
      "verified is serving at http://127.0.0.1:8787 (playground at http://127.0.0.1:8787/), local model only. Ctrl-C stops it.",
    );
  });

  it("names each gateway by name and origin, never a path's query or a key", () => {
    const settings = settingsFor({ VERIFIED_HOST: "0.0.0.0", OPENAI_API_KEY: "sk-secret" }, valid);
    const line = startLine(settings, 9000);
    expect(line).toBe(
      "verified is serving at http://localhost:9000 (playground at http://localhost:9000/), model gateways openai (https://api.openai.com), ollama (http://127.0.0.1:11434) and the local model. Ctrl-C stops it.",
    );
    expect(line).not.toContain("sk-secret");
  });

  it("does not warn about VERIFIED_GATEWAY_KEY when no gateway is configured", () => {
    expect(startWarnings(settingsFor({ VERIFIED_API_KEYS: "k1" }))).toEqual([]);
  });

  it("warns about VERIFIED_GATEWAY_KEY when a gateway takes the request's key", () => {
    expect(
      startWarnings(settingsFor({ VERIFIED_API_KEYS: "k1", VERIFIED_GATEWAY_URL: "http://127.0.0.1:1/v1" })),
    ).toEqual(["VERIFIED_API_KEYS is set but VERIFIED_GATEWAY_KEY is not: gateway calls will carry no key"]);
  });

  it("does not warn about VERIFIED_GATEWAY_KEY when every gateway has its own key or none", () => {
    const settings = settingsFor({ VERIFIED_API_KEYS: "k1", OPENAI_API_KEY: "sk" }, valid);
    expect(startWarnings(settings)).toEqual([]);
  });
});

describe("serve --help", () => {
  it("lists every environment variable serve reads that has no flag", async () => {
    const stdout = collector();
    const code = await runCli(["serve", "--help"], {
      stdin: new PassThrough(),
      stdout,
      stderr: collector(),
      env: {},
    });
    expect(code).toBe(0);
    const help = stdout.text();
    const sources = ["serve-settings.ts", "serve.ts"].map((file) =>
      readFileSync(new URL(`../src/cli/commands/${file}`, import.meta.url), "utf8"),
    );
    const read = new Set(
      sources.flatMap((text) => [...text.matchAll(/env\.(VERIFIED_[A-Z_]+)/g)].map((m) => m[1])),
    );
    expect(read.size).toBeGreaterThan(5);
    for (const name of read) {
      // A variable with a flag is named in the flag's own line ("env VERIFIED_PORT").
      expect(help, name).toContain(name);
    }
    expect(help).toContain("Environment only (no flag):");
  });
});
