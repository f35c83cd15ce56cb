import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBinary } from "./support/run-binary.js";
import { type RunningService, startService } from "./support/start-service.js";

const fixtures = fileURLToPath(new URL("./fixtures/cli/", import.meta.url));
const contract = join(fixtures, "contract.txt");
const contractText = readFileSync(contract, "utf8");
const fieldFlags = [
  "--field",
  "customer=the customer's company name",
  "--field",
  "total=the total amount",
  "--field",
  "law=the governing law",
];

const withoutTokens = (text: string) => text.replace(/[\d,]+ tokens/g, "N tokens");

// Each test below spawns the built binary and waits for it, sharing nothing with the others: they run
// concurrently (two at a time, the service project's maxConcurrency), so the file waits on two children at
// once; each has twice the default timeout, as a child may share the machine with the other.
describe.concurrent("verified extract", { timeout: 40_000 }, () => {
  it("--local prints each field, its value and where it was found, then the coverage", async () => {
    const run = await runBinary(["extract", "--source", contract, ...fieldFlags, "--local"]);
    expect({ ...run, stdout: withoutTokens(run.stdout) }).toEqual({
      code: 0,
      stderr: "",
      stdout: [
        '✓ customer  "Acme Corp"  contract.txt [10, 19)',
        '✓ total     "$12,000"  contract.txt [63, 70)',
        "✗ law       not found (not_found)",
        "",
        "coverage 0.667 (2 of 3 fields found) · 1 model call · N tokens",
        "",
      ].join("\n"),
    });
  });

  it("--json prints the raw result; each range slices its value out of the source", async () => {
    const run = await runBinary(["extract", "--source", contract, ...fieldFlags, "--local", "--json"]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toEqual({
      id: expect.stringMatching(/^ext_/),
      model: "local",
      fields: {
        customer: { value: "Acme Corp", source: "contract.txt", range: [10, 19], grounded: true },
        total: { value: "$12,000", source: "contract.txt", range: [63, 70], grounded: true },
        law: { value: null, grounded: false, reason: "not_found" },
      },
      coverage: 2 / 3,
      usage: {
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
        model_calls: 1,
      },
    });
    for (const field of [result.fields.customer, result.fields.total])
      expect(contractText.slice(field.range[0], field.range[1])).toBe(field.value);
  });

  it("prints --help", async () => {
    const run = await runBinary(["extract", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: verified extract \[options\]\n/);
    expect(run.stdout).toContain("--field <name=description...>");
  });

  it.each([
    {
      name: "a --field without a description",
      args: ["--field", "total"],
      stderr:
        'verified extract: --field "total" must read name="description", e.g. --field total="the amount due".\n',
    },
    {
      name: "a repeated field name",
      args: ["--field", "total=the total", "--field", "total=the sum"],
      stderr: 'verified extract: --field "total" is given twice.\n',
    },
    {
      name: "a missing source file",
      args: ["--field", "total=the total", "--source", "/nonexistent/contract.txt"],
      stderr: "verified extract: cannot read /nonexistent/contract.txt: no such file (ENOENT)\n",
    },
    {
      name: "an unknown --mode",
      args: ["--field", "total=the total", "--mode", "fuzzy"],
      stderr:
        "error: option '--mode <mode>' argument 'fuzzy' is invalid. Allowed choices are strict, lenient.\n",
    },
  ])("$name: one line on stderr, exit 2", async ({ args, stderr }) => {
    const run = await runBinary(["extract", "--source", contract, "--local", ...args]);
    expect(run).toEqual({ code: 2, stdout: "", stderr });
  });
});

describe.concurrent("verified extract against a running service", { timeout: 40_000 }, () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => {
    await service.close();
  });

  it("gives the same fields over --base-url as --local", async () => {
    const remote = await runBinary(
      ["extract", "--source", contract, ...fieldFlags, "--base-url", service.url, "--json"],
      { env: { VERIFIED_API_KEY: "test-key" } },
    );
    const local = await runBinary(["extract", "--source", contract, ...fieldFlags, "--local", "--json"]);
    expect(remote.code).toBe(0);
    expect(JSON.parse(remote.stdout).fields).toEqual(JSON.parse(local.stdout).fields);
  });
});
