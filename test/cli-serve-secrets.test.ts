import { describe, expect, it } from "vitest";
import { readServeSettings } from "../src/cli/commands/serve-settings.js";
import { maskURLCredentials } from "../src/models/index.js";
import { createOpenAIChatGateway } from "../src/models/openai/index.js";
import { runBinary } from "./support/run-binary.js";

// Start-up errors name the variable and the header, never a header's value, and print URLs with their
// credentials masked.

const secret = "sk-live-Secret-Value-0123456789";

describe("an invalid VERIFIED_GATEWAY_HEADERS value", () => {
  it.each([
    ["a line break", { "x-api-key": `${secret}\n x` }, "x-api-key"],
    ["a NUL", { "x-api-key": `${secret}\u0000` }, "x-api-key"],
    ["a control character", { "x-api-key": `${secret}\u0001` }, "x-api-key"],
    ["a space in the name", { "x api": secret }, "x api"],
  ])("with %s is refused naming the variable and the header, never the value", (_name, headers, header) => {
    const outcome = readServeSettings({
      VERIFIED_GATEWAY_URL: "http://127.0.0.1:9/v1",
      VERIFIED_GATEWAY_HEADERS: JSON.stringify(headers),
    });
    expect(outcome).toEqual({
      ok: false,
      message: `VERIFIED_GATEWAY_HEADERS: header ${JSON.stringify(header)} is not a valid header (a name of token characters, a value without control characters such as line breaks); its value is not shown.`,
    });
  });

  it("makes `serve` exit 2 with that line, the value nowhere in its output", async () => {
    const run = await runBinary(["serve", "--port", "0"], {
      env: {
        VERIFIED_GATEWAY_URL: "http://127.0.0.1:9/v1",
        VERIFIED_GATEWAY_HEADERS: JSON.stringify({ "x-api-key": `${secret}\n x` }),
      },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^verified serve: VERIFIED_GATEWAY_HEADERS: header "x-api-key" is not a valid header/,
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain("Secret-Value");
  });

  it("is refused by the gateway adapter too, naming the header only", () => {
    expect(() =>
      createOpenAIChatGateway({
        baseURL: "http://127.0.0.1:9/v1",
        timeoutMs: 1000,
        headers: { "x-api-key": `${secret}\u0000` },
      }),
    ).toThrow(new TypeError('The gateway header "x-api-key" is not a valid header.'));
  });
});

describe("gateway URLs with credentials", () => {
  it.each([
    ["http://user:hunter2@gateway.internal/v1", "http://***@gateway.internal/v1"],
    ["https://token@gateway.internal", "https://***@gateway.internal"],
    ["ftp://user:p@ss@host/v1?x=@y", "ftp://***@host/v1?x=@y"],
    ["http://user:hunter2@[bad", "http://***@[bad"],
    ["http://gateway.internal/v1?to=a@b", "http://gateway.internal/v1?to=a@b"],
    ["not a url @ all", "not a url @ all"],
  ])("%s is printed as %s", (url, masked) => {
    expect(maskURLCredentials(url)).toBe(masked);
  });

  it.each([
    {
      name: "VERIFIED_GATEWAY_URL with another scheme",
      env: { VERIFIED_GATEWAY_URL: "ftp://user:hunter2@host/v1" },
      message: 'The gateway URL must start with http:// or https://; got "ftp://***@host/v1".',
    },
    {
      name: "a config file's base_url",
      env: {},
      config:
        '{"gateways": {"a": {"base_url": "ftp://user:hunter2@host/v1"}}, "routes": [{"model": "*", "gateway": "a"}]}',
      message:
        'verified.config.json:1:21: "gateways.a.base_url" must be an http:// or https:// URL; got "ftp://***@host/v1".',
    },
  ])("$name: the message masks the credentials", ({ env, config, message }) => {
    const outcome = readServeSettings(
      env,
      {},
      config === undefined ? undefined : { path: "verified.config.json", text: config },
    );
    expect(outcome).toEqual({ ok: false, message });
  });

  it("an unparsable gateway URL is named with its credentials masked", () => {
    expect(() => createOpenAIChatGateway({ baseURL: "http://user:hunter2@[bad", timeoutMs: 1000 })).toThrow(
      new TypeError('The gateway URL "http://***@[bad" is not a valid URL.'),
    );
  });
});
