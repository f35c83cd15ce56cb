import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPortURL } from "./support/closed-port-url.js";
import { runBinary } from "./support/run-binary.js";
import { type ScriptedGateway, startScriptedGateway } from "./support/scripted-gateway.js";
import { type RunningService, startService } from "./support/start-service.js";

const fixtures = fileURLToPath(new URL("./fixtures/cli/", import.meta.url));
const policy = join(fixtures, "policy.txt");
const handbook = join(fixtures, "handbook.jsonl");
const refundQuestion = "How many days do I have to return an item for a refund?";
const refundSentence = "Refunds are accepted within 30 days of purchase.";

/** Token counts depend on the local model's tokenizer; the tests pin everything else. */
const withoutTokens = (text: string) => text.replace(/[\d,]+ tokens/g, "N tokens");

const scratch = () => mkdtempSync(join(tmpdir(), "verified-ask-"));

// Each test below spawns the built binary and waits for it, sharing nothing with the others: they run
// concurrently (two at a time, the service project's maxConcurrency), so the file waits on two children at
// once; each has twice the default timeout, as a child may share the machine with the other.
describe.concurrent("verified ask --local", { timeout: 40_000 }, () => {
  it("prints the answer with its marker, each citation with source and range, and the coverage", async () => {
    const run = await runBinary(["ask", refundQuestion, "--source", policy, "--local"]);
    expect({ ...run, stdout: withoutTokens(run.stdout) }).toEqual({
      code: 0,
      stderr: "",
      stdout: [
        "Refunds are accepted within 30 days of purchase [policy.txt].",
        "",
        "Citations",
        "  1. Refunds are accepted within 30 days of purchase.",
        "     policy.txt [0, 48)",
        "",
        "coverage 1 (1 of 1 claims grounded) · 1 model call · N tokens",
        "grounded = each claim above quotes a source; it does not mean the question was answered",
        "",
      ].join("\n"),
    });
  });

  it.each([
    { name: "after one --source", files: [policy], args: ["--source", policy, refundQuestion] },
    {
      name: "after several files of one --source",
      files: [handbook, policy],
      args: ["--source", handbook, policy, refundQuestion],
    },
    {
      name: "after repeated --source",
      files: [handbook, policy],
      args: ["--source", handbook, "--source", policy, refundQuestion],
    },
    { name: "after --", files: [policy], args: ["--source", policy, "--", refundQuestion] },
  ])("takes the question $name, as it does before --source", async ({ files, args }) => {
    const before = await runBinary(["ask", refundQuestion, "--source", ...files, "--local", "--json"]);
    const after = await runBinary(["ask", "--local", "--json", ...args]);
    expect(after).toMatchObject({ code: 0, stderr: "" });
    const { id: _before, ...expected } = JSON.parse(before.stdout);
    const { id: _after, ...result } = JSON.parse(after.stdout);
    expect(result).toEqual(expected);
    expect(result.citations[0]).toMatchObject({ quote: refundSentence, source: "policy.txt" });
  });

  it("--json prints the raw result with the HTTP field names", async () => {
    const run = await runBinary(["ask", refundQuestion, "--source", policy, "--local", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      id: expect.stringMatching(/^vfd_/),
      model: "local",
      text: "Refunds are accepted within 30 days of purchase [policy.txt].",
      citations: [{ claim: refundSentence, quote: refundSentence, source: "policy.txt", range: [0, 48] }],
      unsupported: [],
      coverage: 1,
      abstained: false,
      grounded: true,
      usage: {
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
        model_calls: 1,
      },
    });
  });

  it("reads {id, text} sources from a .jsonl file next to a plain file", async () => {
    const run = await runBinary([
      "ask",
      "How many days of paid leave do employees get?",
      "--source",
      handbook,
      policy,
      "--local",
      "--json",
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.text).toBe("Employees receive 25 days of paid leave per year [leave].");
    expect(result.citations).toEqual([
      {
        claim: "Employees receive 25 days of paid leave per year.",
        quote: "Employees receive 25 days of paid leave per year.",
        source: "leave",
        range: [0, 49],
      },
    ]);
  });

  it("exits 1 when no claim can be grounded, and 0 with --allow-ungrounded", async () => {
    const refused = await runBinary(["ask", "What is the capital of Mars?", "--source", policy, "--local"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("");
    expect(refused.stdout).toMatch(/^The model made no claim the sources support\..*--allow-ungrounded.*\n$/);

    const allowed = await runBinary([
      "ask",
      "What is the capital of Mars?",
      "--source",
      policy,
      "--local",
      "--allow-ungrounded",
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain("(not grounded: a plain answer, not checked against the sources)");
    expect(allowed.stdout).not.toContain("grounded = ");
  });

  it("colours a terminal's output only: plain when piped, ANSI with FORCE_COLOR, none with NO_COLOR", async () => {
    const args = ["ask", refundQuestion, "--source", policy, "--local"];
    const piped = await runBinary(args, { env: { NO_COLOR: "", FORCE_COLOR: "" } });
    const forced = await runBinary(args, { env: { NO_COLOR: "", FORCE_COLOR: "1" } });
    const noColor = await runBinary(args, { env: { NO_COLOR: "1", FORCE_COLOR: "1" } });
    expect(piped.stdout).not.toContain("\u001b[");
    expect(forced.stdout).toContain("\u001b[36m[policy.txt]\u001b[39m");
    expect(stripVTControlCharacters(forced.stdout)).toBe(piped.stdout);
    expect(noColor.stdout).not.toContain("\u001b[");
  });

  it("routes a gateway model through the config file VERIFIED_CONFIG names", async () => {
    const gateway = await startScriptedGateway({
      handler: () =>
        JSON.stringify({
          claims: [{ claim: "Refunds take 30 days.", quote: "within 30 days", source: "policy.txt" }],
        }),
    });
    try {
      const config = join(scratch(), "verified.config.json");
      writeFileSync(
        config,
        JSON.stringify({
          gateways: { team: { base_url: gateway.url, api_key_env: "TEAM_KEY" } },
          routes: [{ model: "team/*", gateway: "team", strip_prefix: true }],
        }),
      );
      const run = await runBinary(
        ["ask", refundQuestion, "--source", policy, "--local", "--model", "team/llama3.1", "--json"],
        { env: { VERIFIED_CONFIG: config, TEAM_KEY: "team-secret" } },
      );
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ model: "team/llama3.1", coverage: 1 });
      expect(gateway.calls[0]?.headers.authorization).toBe("Bearer team-secret");
      expect(gateway.calls[0]?.body).toMatchObject({ model: "llama3.1" });
    } finally {
      await gateway.close();
    }
  });

  it("calls the gateway named by VERIFIED_GATEWAY_URL, with VERIFIED_GATEWAY_KEY, for a gateway model", async () => {
    const gateway = await startScriptedGateway({
      handler: () =>
        JSON.stringify({
          claims: [
            { claim: "Refunds take 30 days.", quote: "within 30 days", source: "policy.txt" },
            { claim: "Refunds take 90 days.", quote: "within 90 days", source: "policy.txt" },
          ],
        }),
    });
    try {
      const run = await runBinary(
        ["ask", refundQuestion, "--source", policy, "--local", "--model", "gpt-test"],
        {
          env: { VERIFIED_GATEWAY_URL: gateway.url, VERIFIED_GATEWAY_KEY: "gateway-secret" },
        },
      );
      expect(withoutTokens(run.stdout)).toBe(
        [
          "Refunds take 30 days [policy.txt].",
          "",
          "Citations",
          "  1. Refunds take 30 days.",
          '     policy.txt [21, 35) "within 30 days"',
          "",
          "Dropped claims",
          "  ✗ Refunds take 90 days. (quote_not_found)",
          "",
          "coverage 0.5 (1 of 2 claims grounded) · 1 model call · N tokens",
          "grounded = each claim above quotes a source; it does not mean the question was answered",
          "",
        ].join("\n"),
      );
      expect(run.code).toBe(0);
      expect(gateway.calls).toHaveLength(1);
      expect(gateway.calls[0]?.headers.authorization).toBe("Bearer gateway-secret");
      expect(gateway.calls[0]?.body).toMatchObject({ model: "gpt-test" });
    } finally {
      await gateway.close();
    }
  });

  it("prints --help", async () => {
    const run = await runBinary(["ask", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: verified ask \[options\] \[question\]\n/);
    expect(run.stdout).toContain("Exit codes: 0 answered, 1 no claim could be grounded, 2 bad input");
    for (const flag of [
      "--source",
      "--model",
      "--mode",
      "--check-numbers",
      "--retry",
      "--json",
      "--base-url",
    ])
      expect(run.stdout).toContain(flag);
  });
});

describe("verified ask against a running service", () => {
  let service: RunningService;
  let gateway: ScriptedGateway;

  beforeAll(async () => {
    gateway = await startScriptedGateway();
    service = await startService({ gatewayURL: gateway.url, config: { apiKeys: ["cli-key"] } });
  });
  afterAll(async () => {
    await service.close();
    await gateway.close();
  });

  it("gives the same answer over --base-url as --local", async () => {
    const remote = await runBinary(["ask", refundQuestion, "--source", policy, "--json"], {
      env: { VERIFIED_BASE_URL: service.url, VERIFIED_API_KEY: "cli-key" },
    });
    const local = await runBinary(["ask", refundQuestion, "--source", policy, "--json", "--local"]);
    expect(remote.code).toBe(0);
    const { id: _remoteId, ...remoteResult } = JSON.parse(remote.stdout);
    const { id: _localId, ...localResult } = JSON.parse(local.stdout);
    expect(remoteResult).toEqual(localResult);
  });

  it("asks for prose with --answer-format text: a kept sentence's new words listed, or dropped with --partial drop", async () => {
    const partly = "Refunds are accepted within 30 days of purchase in every cheerful shop [policy.txt].";
    const shipping = "Shipping is free on orders over $50 [policy.txt].";
    gateway.script(() => `${partly} ${shipping}`);
    const before = gateway.calls.length;
    const remote = [
      "--source",
      policy,
      "--model",
      "gpt-test",
      "--base-url",
      service.url,
      "--api-key",
      "cli-key",
    ];

    const kept = await runBinary(["ask", refundQuestion, ...remote, "--answer-format", "text"]);
    const dropped = await runBinary([
      "ask",
      refundQuestion,
      ...remote,
      "--answer-format",
      "text",
      "--partial",
      "drop",
      "--json",
    ]);

    // Asked for prose: no JSON schema in either call.
    const calls = gateway.calls.slice(before);
    expect(calls.map((call) => (call.body as { response_format?: unknown }).response_format)).toEqual([
      undefined,
      undefined,
    ]);
    expect(kept).toMatchObject({ code: 0, stderr: "" });
    expect(withoutTokens(kept.stdout)).toContain(
      [
        "Partly supported (kept)",
        "  ~ Refunds are accepted within 30 days of purchase in every cheerful shop.",
        '     not in the sources: "cheerful", "shop"',
        "",
        "coverage 1 (2 of 2 claims grounded)",
      ].join("\n"),
    );
    expect(dropped.code).toBe(0);
    const result = JSON.parse(dropped.stdout);
    expect(result).toMatchObject({ text: shipping, partial: [], coverage: 0.5 });
    expect(result.unsupported.map((entry: { reason: string }) => entry.reason)).toEqual(["partial_support"]);
  });

  it("with --explain says why each dropped claim failed", async () => {
    const miscited = "Shipping is free on orders over $50 [handbook].";
    gateway.script(() => `Refunds are accepted within 30 days of purchase [policy.txt]. ${miscited}`);
    const remote = ["--model", "gpt-test", "--base-url", service.url, "--api-key", "cli-key"];
    const run = await runBinary([
      "ask",
      refundQuestion,
      "--source",
      policy,
      ...remote,
      "--answer-format",
      "text",
      "--explain",
    ]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain(
      "Dropped claims\n  ✗ Shipping is free on orders over $50. (unknown_source: the marker [handbook] names no source)\n",
    );
  });

  it("refuses --partial without --answer-format text, which it would not change", async () => {
    const run = await runBinary(["ask", refundQuestion, "--source", policy, "--local", "--partial", "drop"]);
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "verified ask: --partial goes with --answer-format text (claims with quotes are never partial)\n",
    });
  });

  it("reports a refused API key in one line and exits 2", async () => {
    const run = await runBinary(
      ["ask", refundQuestion, "--source", policy, "--base-url", service.url, "--api-key", "wrong"],
      {},
    );
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "verified ask: The API key is not valid for this service. Pass --api-key or set VERIFIED_API_KEY (invalid_key).\n",
    });
  });

  it("passes --check-numbers and --mode through to the service", async () => {
    gateway.script(() =>
      JSON.stringify({
        claims: [{ claim: "Refunds take 31 days.", quote: "within 30 days", source: "policy.txt" }],
      }),
    );
    const run = await runBinary(
      [
        "ask",
        refundQuestion,
        "--source",
        policy,
        "--model",
        "gpt-test",
        "--check-numbers",
        "--mode",
        "lenient",
        "--json",
        "--base-url",
        service.url,
        "--api-key",
        "cli-key",
      ],
      {},
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        type: "ungrounded",
        message: expect.any(String),
        unsupported: [
          {
            claim: "Refunds take 31 days.",
            reason: "number_not_found",
            quote: "within 30 days",
            source: "policy.txt",
          },
        ],
      },
    });
  });
});

describe.concurrent("verified ask --stream", { timeout: 40_000 }, () => {
  it("prints each claim as it lands, then the same answer as without --stream", async () => {
    const plain = await runBinary(["ask", refundQuestion, "--source", policy, "--local"]);
    const run = await runBinary(["ask", refundQuestion, "--source", policy, "--local", "--stream"]);

    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`✓ ${refundSentence} policy.txt [0, 48)\n\n${plain.stdout}`);
  });

  it("--json prints one {event, data} line per event, ending with done", async () => {
    const run = await runBinary(["ask", refundQuestion, "--source", policy, "--local", "--stream", "--json"]);

    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(run.code).toBe(0);
    expect(lines.map((line) => line.event)).toEqual(["claim", "done"]);
    expect(lines[1].data.citations).toEqual([lines[0].data]);
  });

  it("exits 1 with an error line when no claim can be grounded", async () => {
    const run = await runBinary([
      "ask",
      "What is the capital of Mars?",
      "--source",
      policy,
      "--local",
      "--stream",
      "--json",
    ]);

    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ event: "error", data: { error: { type: "ungrounded" } } });
  });
});

describe.concurrent("verified ask: bad input is one line on stderr and exit 2", { timeout: 40_000 }, () => {
  it.each([
    {
      name: "a missing source file",
      args: () => ["ask", "q", "--source", "/nonexistent/notes.txt", "--local"],
      stderr: "verified ask: cannot read /nonexistent/notes.txt: no such file (ENOENT)\n",
    },
    {
      name: "invalid JSON on a line of a .jsonl source file",
      args: () => {
        const file = join(scratch(), "chunks.jsonl");
        writeFileSync(file, '{"id": "a", "text": "A."}\n\n{"id": "b", "text": }\n');
        return ["ask", "q", "--source", file, "--local"];
      },
      stderr: /^verified ask: .*chunks\.jsonl: line 3: invalid JSON: value expected\n$/,
    },
    {
      name: "two sources with one id",
      args: () => ["ask", "q", "--source", policy, policy, "--local"],
      stderr:
        /^verified ask: .*policy\.txt: source id "policy\.txt" is already used by .*policy\.txt; ids must be unique/,
    },
    {
      name: "an unknown option",
      args: () => ["ask", "q", "--source", policy, "--local", "--frobnicate"],
      stderr: "error: unknown option '--frobnicate'\n",
    },
    {
      name: "--retry out of range",
      args: () => ["ask", "q", "--source", policy, "--local", "--retry", "9"],
      stderr: "error: option '--retry <n>' argument '9' is invalid. Expected a whole number from 0 to 5.\n",
    },
    {
      name: "no question (the last --source value is a file)",
      args: () => ["ask", "--source", handbook, policy, "--local"],
      stderr:
        'verified ask: no question given; write it in quotes, before --source or after the files: verified ask "question" --source FILE...\n',
    },
    {
      name: "no --source",
      args: () => ["ask", "q", "--local"],
      stderr: "error: required option '-s, --source <file...>' not specified\n",
    },
  ])("$name", async ({ args, stderr }) => {
    const run = await runBinary(args());
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    if (typeof stderr === "string") expect(run.stderr).toBe(stderr);
    else expect(run.stderr).toMatch(stderr);
    expect(run.stderr.split("\n")).toHaveLength(2);
  });

  it("says how to reach a service when none answers", async () => {
    const url = await closedPortURL();
    const run = await runBinary(["ask", "q", "--source", policy, "--base-url", url, "--api-key", "k"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      new RegExp(
        `^verified ask: Could not reach the service at ${url}: .*Start the service with \`verified serve\`, point --base-url at it, or run in process with --local \\(connection_error\\)\\.\\n$`,
      ),
    );
  });
});
