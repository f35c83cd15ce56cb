import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPortURL } from "./support/closed-port-url.js";
import { runBinary } from "./support/run-binary.js";
import { startScriptedGateway } from "./support/scripted-gateway.js";
import { type RunningService, startService } from "./support/start-service.js";

const fixtures = fileURLToPath(new URL("./fixtures/cli/", import.meta.url));
const highJsonl = join(fixtures, "eval-high.jsonl");
const lowJsonl = join(fixtures, "eval-low.jsonl");
const highJson = join(fixtures, "eval-high.json");
const highArray = join(fixtures, "eval-high-array.json");
const policyText = readFileSync(join(fixtures, "policy.txt"), "utf8").trim();

const scratch = () => mkdtempSync(join(tmpdir(), "verified-eval-"));
const withoutTokens = (text: string) => text.replace(/tokens( +)[\d,]+/, "tokens$1N");

interface Case {
  id?: string;
  messages: { role: string; content: string }[];
  sources: { id: string; text: string }[];
}
const lowCases: Case[] = readFileSync(lowJsonl, "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as Case);
const highCases: Case[] = readFileSync(highJsonl, "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as Case);

function writeDataset(name: string, cases: readonly unknown[]): string {
  const file = join(scratch(), name);
  writeFileSync(file, `${cases.map((entry) => JSON.stringify(entry)).join("\n")}\n`);
  return file;
}

function parseJunit(xml: string) {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => ["testcase", "property"].includes(name),
  }).parse(xml);
}

// Each test below spawns the built binary and waits for it, sharing nothing with the others: they run
// concurrently (two at a time, the service project's maxConcurrency), so the file waits on two children at
// once; each has twice the default timeout, as a child may share the machine with the other.
describe.concurrent("verified eval --local: the gate", { timeout: 40_000 }, () => {
  it("exits 0 when coverage_mean reaches --min-coverage, with the summary on stdout and progress on stderr", async () => {
    const run = await runBinary(["eval", highJsonl, "--local", "--min-coverage", "0.8"]);
    expect({ ...run, stdout: withoutTokens(run.stdout) }).toEqual({
      code: 0,
      stderr: "verified eval: 3/3 cases scored\n",
      stdout: [
        `verified eval: ${highJsonl} (model local, mode strict)`,
        "",
        "  n                 3",
        "  errored           0",
        "  coverage_mean     1",
        "  unsupported_rate  0",
        "  model calls       3",
        "  tokens            N",
        "",
        "Lowest coverage (3 of 3)",
        "  case           coverage  outcome",
        "  refund-window  1         1 of 1 claims grounded",
        "  free-shipping  1         1 of 1 claims grounded",
        "  support-hours  1         1 of 1 claims grounded",
        "",
        "PASS coverage_mean 1 >= min-coverage 0.8",
        "",
      ].join("\n"),
    });
  });

  it("exits 1 when coverage_mean is below --min-coverage, lowest cases first", async () => {
    const run = await runBinary(["eval", lowJsonl, "--local", "--min-coverage", "0.8"]);
    expect(run.code).toBe(1);
    expect(withoutTokens(run.stdout).split("\n").slice(2)).toEqual([
      "  n                 3",
      "  errored           0",
      "  coverage_mean     0.333",
      "  unsupported_rate  0",
      "  model calls       3",
      "  tokens            N",
      "",
      "Lowest coverage (3 of 3)",
      "  case           coverage  outcome",
      "  mars           0         no claims",
      "  pizza          0         no claims",
      "  refund-window  1         1 of 1 claims grounded",
      "",
      "FAIL coverage_mean 0.333 < min-coverage 0.8",
      "",
    ]);
  });

  it("defaults --min-coverage to 0: without a threshold it reports and passes", async () => {
    const run = await runBinary(["eval", lowJsonl, "--local"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("PASS coverage_mean 0.333 >= min-coverage 0\n");
  });

  it("fails when every case errored, whatever the threshold", async () => {
    const run = await runBinary(["eval", lowJsonl, "--local"], { env: { VERIFIED_SOURCES_BUDGET: "10" } });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("FAIL every case errored, so nothing was scored\n");
  });

  it("reads {cases: [...]}, a bare array and JSONL alike", async () => {
    const results = await Promise.all(
      [highJsonl, highJson, highArray].map((file) => runBinary(["eval", file, "--local", "--json"])),
    );
    const reports = results.map((run) => {
      expect(run.code).toBe(0);
      return JSON.parse(run.stdout);
    });
    for (const report of reports) {
      expect(report.aggregate).toEqual({ coverage_mean: 1, unsupported_rate: 0, n: 3, errored: 0 });
      expect(report.usage).toEqual(reports[0].usage);
    }
    expect(reports[1].cases.map((entry: { id?: string }) => entry.id)).toEqual([
      "refund-window",
      "free-shipping",
      "support-hours",
    ]);
    // The bare array has no ids: the cases are known by position.
    expect(reports[2].cases.map((entry: { id?: string; index: number }) => [entry.id, entry.index])).toEqual([
      [undefined, 0],
      [undefined, 1],
      [undefined, 2],
    ]);
  });

  it("prints --help", async () => {
    const run = await runBinary(["eval", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: verified eval \[options\] <dataset>\n/);
    for (const flag of ["--min-coverage", "--report", "--local", "--base-url", "--api-key"])
      expect(run.stdout).toContain(flag);
  });
});

describe.concurrent("verified eval --report", { timeout: 40_000 }, () => {
  it("writes Markdown, JSON and JUnit XML that parse back to the run", async () => {
    const dir = scratch();
    const [md, json, xml] = ["report.md", "report.json", "report.xml"].map((name) => join(dir, name));
    const run = await runBinary([
      "eval",
      lowJsonl,
      "--local",
      "--min-coverage",
      "0.5",
      "--report",
      md as string,
      "--report",
      json as string,
      "--report",
      xml as string,
    ]);
    expect(run.code).toBe(1);

    const jsonReport = JSON.parse(readFileSync(json as string, "utf8"));
    expect(jsonReport).toEqual({
      dataset: lowJsonl,
      model: "local",
      mode: "strict",
      min_coverage: 0.5,
      passed: false,
      aggregate: { coverage_mean: 1 / 3, unsupported_rate: 0, n: 3, errored: 0 },
      usage: { total_tokens: expect.any(Number), model_calls: 3 },
      cases: [
        { index: 0, id: "refund-window", coverage: 1, citations: 1, unsupported: 0, passed: true },
        {
          index: 1,
          id: "mars",
          coverage: 0,
          citations: 0,
          unsupported: 0,
          failures: ["below_min_coverage"],
          passed: false,
        },
        {
          index: 2,
          id: "pizza",
          coverage: 0,
          citations: 0,
          unsupported: 0,
          failures: ["below_min_coverage"],
          passed: false,
        },
      ],
    });

    const junit = parseJunit(readFileSync(xml as string, "utf8"));
    expect(junit.testsuites).toMatchObject({ name: "verified eval", tests: "3", failures: "2", errors: "0" });
    const suite = junit.testsuites.testsuite;
    expect(suite).toMatchObject({ name: "eval-low.jsonl", tests: "3", failures: "2", errors: "0" });
    expect(
      Object.fromEntries(
        suite.properties.property.map((p: { name: string; value: string }) => [p.name, p.value]),
      ),
    ).toEqual({
      model: "local",
      mode: "strict",
      min_coverage: "0.5",
      passed: "false",
      gate: "coverage_mean 0.333 < min-coverage 0.5",
      coverage_mean: String(1 / 3),
      unsupported_rate: "0",
      n: "3",
      errored: "0",
      model_calls: "3",
      total_tokens: String(jsonReport.usage.total_tokens),
    });
    expect(suite.testcase).toEqual([
      { name: "refund-window", classname: "eval-low.jsonl" },
      {
        name: "mars",
        classname: "eval-low.jsonl",
        failure: {
          type: "below_min_coverage",
          message: "coverage 0 is below min-coverage 0.5",
          "#text": "no claims",
        },
      },
      {
        name: "pizza",
        classname: "eval-low.jsonl",
        failure: {
          type: "below_min_coverage",
          message: "coverage 0 is below min-coverage 0.5",
          "#text": "no claims",
        },
      },
    ]);

    const markdown = readFileSync(md as string, "utf8");
    expect(withoutTokens(markdown).replace(/\| 3 \| \d+ \|$/m, "| 3 | N |")).toBe(
      [
        "## verified eval: ❌ failed",
        "",
        `coverage_mean 0.333 < min-coverage 0.5. Dataset \`${lowJsonl}\`, model \`local\`, mode \`strict\`.`,
        "",
        "| n | errored | coverage_mean | unsupported_rate | model calls | tokens |",
        "|---:|---:|---:|---:|---:|---:|",
        "| 3 | 0 | 0.333 | 0 | 3 | N |",
        "",
        "### Lowest coverage (3 of 3)",
        "",
        "| case | coverage | outcome |",
        "|---|---:|---|",
        "| mars | 0 | no claims |",
        "| pizza | 0 | no claims |",
        "| refund-window | 1 | 1 of 1 claims grounded |",
        "",
      ].join("\n"),
    );
  });

  it("appends the Markdown report to $GITHUB_STEP_SUMMARY, keeping what earlier steps wrote", async () => {
    const dir = scratch();
    const summary = join(dir, "step-summary.md");
    writeFileSync(summary, "# Build\n\nAll good.\n");
    const report = join(dir, "groundedness.md");
    const run = await runBinary(["eval", highJsonl, "--local", "--min-coverage", "0.8", "--report", report], {
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(run.code).toBe(0);
    const written = readFileSync(report, "utf8");
    expect(written).toMatch(/^## verified eval: ✅ passed\n/);
    expect(readFileSync(summary, "utf8")).toBe(`# Build\n\nAll good.\n${written}\n`);
  });

  it("marks an errored case of a passing run <skipped> in JUnit (no failure, as the exit code says), escapes XML, and leaves the error out of the aggregate", async () => {
    const [first, second] = highCases;
    const tooLarge: Case = {
      id: "too-large",
      messages: [{ role: "user", content: "Anything?" }],
      sources: [{ id: "big", text: "x".repeat(500) }],
    };
    const awkward = { ...second, id: `<quote> & "double" 'single' bell\u0007` };
    const dataset = writeDataset("mixed.jsonl", [first, tooLarge, awkward]);
    const xml = join(scratch(), "junit.xml");
    const run = await runBinary(["eval", dataset, "--local", "--min-coverage", "0.9", "--report", xml], {
      env: { VERIFIED_SOURCES_BUDGET: String(policyText.length + 10) },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("  errored           1\n");
    expect(run.stdout).toMatch(/^ {2}too-large +error +sources_too_large: .*the limit is \d+\./m);

    const suite = parseJunit(readFileSync(xml, "utf8")).testsuites.testsuite;
    expect(suite).toMatchObject({ tests: "3", failures: "0", errors: "0", skipped: "1" });
    expect(suite.testcase.map((entry: { name: string }) => entry.name)).toEqual([
      "refund-window",
      "too-large",
      `<quote> & "double" 'single' bell\uFFFD`,
    ]);
    expect(suite.testcase[1].skipped).toMatchObject({
      message: expect.stringMatching(/^not scored: sources_too_large: .*the limit is/),
    });

    // The same case in a failing run is an <error>: it counts against the gate that failed.
    const all = writeDataset("errored.jsonl", [tooLarge]);
    const xml2 = join(scratch(), "junit.xml");
    const allErrored = await runBinary(["eval", all, "--local", "--report", xml2], {
      env: { VERIFIED_SOURCES_BUDGET: String(policyText.length + 10) },
    });
    expect(allErrored.code).toBe(1);
    const failedSuite = parseJunit(readFileSync(xml2, "utf8")).testsuites.testsuite;
    expect(failedSuite).toMatchObject({ tests: "1", failures: "0", errors: "1", skipped: "0" });
    expect(failedSuite.testcase[0].error).toMatchObject({ type: "sources_too_large" });
  });
});

describe("verified eval with expected answers", () => {
  const [refund, shipping] = highCases;
  const cases = [
    { ...refund, expected: "30 days" },
    // Grounded, but not the answer the dataset wanted: correct says so where coverage cannot.
    { ...shipping, expected: ["$75", "seventy-five dollars"] },
    { ...highCases[2] },
  ];

  it("scores correct_rate, gates on --min-correct, and fails in JUnit exactly the cases not correct", async () => {
    const dataset = writeDataset("expected.jsonl", cases);
    const dir = scratch();
    const [json, xml] = ["r.json", "r.xml"].map((name) => join(dir, name));
    const run = await runBinary([
      "eval",
      dataset,
      "--local",
      "--min-correct",
      "0.9",
      "--report",
      json as string,
      "--report",
      xml as string,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("  correct_rate      0.5\n");
    expect(run.stdout).toMatch(
      /Not correct \(1 of 1\)\n {2}free-shipping +not correct; 1 of 1 claims grounded/,
    );
    expect(run.stdout).toContain(
      "FAIL coverage_mean 1 >= min-coverage 0; correct_rate 0.5 < min-correct 0.9\n",
    );

    const report = JSON.parse(readFileSync(json as string, "utf8"));
    expect(report).toMatchObject({ min_correct: 0.9, passed: false, aggregate: { correct_rate: 0.5 } });
    expect(report.cases[0]).toMatchObject({
      correct: true,
      match: { expected: "30 days", citation: 0, range: expect.any(Array) },
      passed: true,
    });
    expect(report.cases[1]).toMatchObject({ correct: false, passed: false, failures: ["not_correct"] });
    expect(report.cases[2]).not.toHaveProperty("correct");

    const suite = parseJunit(readFileSync(xml as string, "utf8")).testsuites.testsuite;
    expect(suite).toMatchObject({ tests: "3", failures: "1", errors: "0" });
    expect(suite.testcase[1].failure).toMatchObject({
      type: "not_correct",
      message: "not correct, and correct_rate is below min-correct 0.9",
    });

    const passing = await runBinary([
      "eval",
      dataset,
      "--local",
      "--min-correct",
      "0.5",
      "--report",
      xml as string,
    ]);
    expect(passing.code).toBe(0);
    expect(parseJunit(readFileSync(xml as string, "utf8")).testsuites).toMatchObject({
      failures: "0",
      errors: "0",
    });
  });

  it("refuses --min-correct when no case has expected", async () => {
    const run = await runBinary(["eval", highJsonl, "--local", "--min-correct", "0.5"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--min-correct gates on correct_rate, but no case .* has "expected"/);
  });

  it("compares correctness with a baseline: a case no longer correct regresses", async () => {
    const dir = scratch();
    const base = join(dir, "base.json");
    const right = writeDataset("right.jsonl", [{ ...refund, expected: "30 days" }]);
    const wrong = writeDataset("wrong.jsonl", [{ ...refund, expected: "60 days" }]);
    expect((await runBinary(["eval", right, "--local", "--report", base])).code).toBe(0);
    const run = await runBinary(["eval", wrong, "--local", "--baseline", base, "--fail-on-regression"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/refund-window {2}1 -> 1 \(0\) REGRESSED\n {4}no longer correct/);
  });
});

describe.concurrent("verified eval against a running service", { timeout: 40_000 }, () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ config: { apiKeys: ["eval-key"] } });
  });
  afterAll(async () => {
    await service.close();
  });

  it("scores the same over --base-url as --local", async () => {
    const remote = await runBinary(["eval", highJsonl, "--base-url", service.url, "--json"], {
      env: { VERIFIED_API_KEY: "eval-key" },
    });
    const local = await runBinary(["eval", highJsonl, "--local", "--json"]);
    expect(remote.code).toBe(0);
    expect(JSON.parse(remote.stdout)).toEqual(JSON.parse(local.stdout));
  });

  it("pages 250 cases through two requests and merges them exactly", async () => {
    const cases = Array.from({ length: 250 }, (_, index) => ({
      ...lowCases[index % 3],
      id: `case-${index}`,
    }));
    const dataset = writeDataset("big.jsonl", cases);
    const run = await runBinary(
      [
        "eval",
        dataset,
        "--base-url",
        service.url,
        "--api-key",
        "eval-key",
        "--min-coverage",
        "0.3",
        "--json",
      ],
      {},
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^verified eval: (50|200)\/250 cases scored\nverified eval: 250\/250 cases scored\n$/,
    );
    const report = JSON.parse(run.stdout);
    const grounded = cases.filter((_, index) => index % 3 === 0).length;
    expect(report.aggregate).toEqual({
      coverage_mean: grounded / 250,
      unsupported_rate: 0,
      n: 250,
      errored: 0,
    });
    expect(report.usage.model_calls).toBe(250);
    expect(report.cases.map((entry: { id: string }) => entry.id)).toEqual(cases.map((entry) => entry.id));
  });

  it("reports a refused key in one line and exits 2", async () => {
    const run = await runBinary(["eval", highJsonl, "--base-url", service.url, "--api-key", "wrong"]);
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "verified eval: The API key is not valid for this service. Pass --api-key or set VERIFIED_API_KEY (invalid_key).\n",
    });
  });
});

describe.concurrent("verified eval: bad input is one line on stderr and exit 2", { timeout: 40_000 }, () => {
  const [good] = highCases;
  const noSources = { id: "no-sources", messages: [{ role: "user", content: "Hi?" }] };

  it.each([
    {
      name: "a missing dataset",
      args: () => ["eval", "/nonexistent/dataset.jsonl", "--local"],
      stderr: "verified eval: cannot read /nonexistent/dataset.jsonl: no such file (ENOENT)\n",
    },
    {
      name: "invalid JSON on line 3 of a JSONL dataset",
      args: () => {
        const file = join(scratch(), "broken.jsonl");
        writeFileSync(file, `${JSON.stringify(good)}\n\n{"messages": [}\n${JSON.stringify(good)}\n`);
        return ["eval", file, "--local"];
      },
      stderr: /^verified eval: .*broken\.jsonl: line 3: invalid JSON: value expected\n$/,
    },
    {
      name: "invalid JSON in a .json dataset, by line",
      args: () => {
        const file = join(scratch(), "broken.json");
        writeFileSync(file, '{\n  "cases": [\n    {"messages": []},,\n  ]\n}\n');
        return ["eval", file, "--local"];
      },
      stderr: /^verified eval: .*broken\.json: line 3: invalid JSON: value expected\n$/,
    },
    {
      name: "a JSONL case without sources",
      args: () => ["eval", writeDataset("cases.jsonl", [good, noSources]), "--local"],
      stderr:
        /^verified eval: .*cases\.jsonl: line 2: the case has no sources; give it "sources": \[\{"id": \.\.\., "text": \.\.\.\}\]\.\n$/,
    },
    {
      name: "a JSON case with empty sources, by case and line",
      args: () => {
        const file = join(scratch(), "cases.json");
        writeFileSync(file, JSON.stringify({ cases: [good, { ...good, sources: [] }] }, null, 2));
        return ["eval", file, "--local"];
      },
      stderr: /^verified eval: .*cases\.json: case 2 \(line 18\): the case has no sources; /,
    },
    {
      name: "a message with an unknown role",
      args: () => [
        "eval",
        writeDataset("roles.jsonl", [{ ...good, messages: [{ role: "robot", content: "Hi" }] }]),
        "--local",
      ],
      stderr:
        /^verified eval: .*roles\.jsonl: line 1: "messages\[0\]\.role" must be one of "system", "user", "assistant"; got "robot"\.\n$/,
    },
    {
      name: "a dataset with no cases",
      args: () => {
        const file = join(scratch(), "empty.json");
        writeFileSync(file, '{"cases": []}');
        return ["eval", file, "--local"];
      },
      stderr: /^verified eval: .*empty\.json: holds no cases\.\n$/,
    },
    {
      name: "an unknown option",
      args: () => ["eval", highJsonl, "--local", "--frobnicate"],
      stderr: "error: unknown option '--frobnicate'\n",
    },
    {
      name: "--min-coverage above 1",
      args: () => ["eval", highJsonl, "--local", "--min-coverage", "1.5"],
      stderr:
        "error: option '--min-coverage <fraction>' argument '1.5' is invalid. Expected a number from 0 to 1.\n",
    },
    {
      name: "a report file of an unknown kind",
      args: () => ["eval", highJsonl, "--local", "--report", "report.html"],
      stderr:
        "error: option '--report <file>' argument 'report.html' is invalid. The report file must end in .md (Markdown), .json or .xml (JUnit).\n",
    },
    {
      name: "--local with --base-url",
      args: () => ["eval", highJsonl, "--local", "--base-url", "http://127.0.0.1:8787"],
      stderr: "error: option '--local' cannot be used with option '--base-url <url>'\n",
    },
    {
      name: "a malformed gateway variable under --local",
      args: () => ["eval", highJsonl, "--local"],
      env: { VERIFIED_GATEWAY_HEADERS: "not json" },
      stderr:
        'verified eval: VERIFIED_GATEWAY_HEADERS must be a JSON object of strings, e.g. {"x-portkey-provider": "openai"}.\n',
    },
  ])("$name", async ({ args, stderr, env }) => {
    const run = await runBinary(args(), env ? { env } : {});
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    if (typeof stderr === "string") expect(run.stderr).toBe(stderr);
    else expect(run.stderr).toMatch(stderr);
    expect(run.stderr.split("\n")).toHaveLength(2);
  });

  it("says how to reach a service when none answers; the stack only with --debug", async () => {
    const url = await closedPortURL();
    const plain = await runBinary(["eval", highJsonl, "--base-url", url, "--api-key", "k"]);
    expect(plain.code).toBe(2);
    expect(plain.stdout).toBe("");
    expect(plain.stderr).toMatch(
      /^verified eval: Could not reach the service at .*\(connection_error\)\.\n$/,
    );

    const debug = await runBinary(["eval", highJsonl, "--base-url", url, "--api-key", "k", "--debug"]);
    expect(debug.code).toBe(2);
    const [first, ...rest] = debug.stderr.trimEnd().split("\n");
    expect(first).toBe(plain.stderr.trimEnd());
    expect(rest[0]).toMatch(/^ConnectionError: /);
    expect(rest.some((line) => line.trim().startsWith("at "))).toBe(true);
  });
});

describe("verified eval --answer-format text", { timeout: 40_000 }, () => {
  it("scores prose answers, a partly supported sentence kept by default and dropped with --partial drop", async () => {
    const gateway = await startScriptedGateway({
      handler: () =>
        "Refunds are accepted within 30 days of purchase in every cheerful shop [policy]. Shipping is free on orders over $50 [policy].",
    });
    try {
      const dataset = writeDataset("prose.jsonl", [
        {
          id: "refunds",
          messages: [{ role: "user", content: "How do refunds and shipping work?" }],
          sources: [{ id: "policy", text: policyText }],
        },
      ]);
      const run = (...flags: string[]) =>
        runBinary(
          ["eval", dataset, "--local", "--model", "gpt-test", "--answer-format", "text", "--json", ...flags],
          {
            env: { VERIFIED_GATEWAY_URL: gateway.url },
          },
        );
      const kept = await run();
      const dropped = await run("--partial", "drop");
      const report = join(scratch(), "explained.md");
      const explained = await run("--partial", "drop", "--explain", "--report", report);
      const refused = await runBinary(["eval", dataset, "--local", "--partial", "drop"]);

      expect(kept.code).toBe(0);
      expect(JSON.parse(kept.stdout).cases[0]).toMatchObject({ id: "refunds", coverage: 1, unsupported: 0 });
      expect(dropped.code).toBe(0);
      expect(JSON.parse(dropped.stdout).cases[0]).toMatchObject({
        id: "refunds",
        coverage: 0.5,
        unsupported: 1,
      });
      expect(
        gateway.calls.map((call) => (call.body as { response_format?: unknown }).response_format),
      ).toEqual([undefined, undefined, undefined]);
      // With --explain, the report says which words the dropped sentence's spans lack.
      expect(explained.code).toBe(0);
      expect(readFileSync(report, "utf8")).toContain(
        '| refunds | "Refunds are accepted within 30 days of purchase in every cheerful shop." (partial_support: no span of its sources holds "cheerful", "shop"; quote',
      );
      expect(refused).toEqual({
        code: 2,
        stdout: "",
        stderr:
          "verified eval: --partial goes with --answer-format text (claims with quotes are never partial)\n",
      });
    } finally {
      await gateway.close();
    }
  });
});
