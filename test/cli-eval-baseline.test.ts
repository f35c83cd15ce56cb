import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBinary } from "./support/run-binary.js";
import { type ScriptedGateway, startScriptedGateway } from "./support/scripted-gateway.js";

// `verified eval` with a model that drops claims: the reports name the dropped claims, and `--baseline`
// compares a later run case by case. The model is a scripted gateway reached through `--local`.

const policy = {
  id: "policy",
  text: "Refunds are accepted within 30 days of purchase. Shipping is free on orders over $50. Our support team answers email on weekdays.",
};
const grounded = (quote: string) => ({ claim: quote, quote, source: "policy" });
const invented = (claim: string) => ({ claim, quote: claim.toLowerCase(), source: "policy" });

const refund = grounded("Refunds are accepted within 30 days of purchase.");
const shipping = grounded("Shipping is free on orders over $50.");
const hours = grounded("Our support team answers email on weekdays.");
const lifetime = invented("Refunds are accepted for life.");
const weekends = invented("Support answers on weekends.");

type Claims = Record<string, unknown[]>;
let answers: Claims = {};
let gateway: ScriptedGateway;

beforeAll(async () => {
  gateway = await startScriptedGateway({
    handler: (call) => {
      const body = call.body as { messages: { role: string; content: string }[] };
      const question = body.messages.filter((message) => message.role === "user")[0]?.content ?? "";
      const key = Object.keys(answers).find((name) => question.includes(name));
      return JSON.stringify({ claims: key === undefined ? [] : answers[key] });
    },
  });
});
afterAll(() => gateway.close());

const scratch = () => mkdtempSync(join(tmpdir(), "verified-baseline-"));
const ask = (id: string) => ({
  id,
  messages: [{ role: "user", content: `Question ${id}?` }],
  sources: [policy],
});

function dataset(ids: string[]): string {
  const file = join(scratch(), "cases.jsonl");
  writeFileSync(file, `${ids.map((id) => JSON.stringify(ask(id))).join("\n")}\n`);
  return file;
}

const run = (args: string[], env: Record<string, string> = {}) =>
  runBinary(["eval", ...args, "--local", "--model", "gpt-test"], {
    env: { VERIFIED_GATEWAY_URL: gateway.url, ...env },
  });

describe("verified eval: dropped claims in the reports", () => {
  it("names the claims the lowest cases dropped in JSON, Markdown and JUnit", async () => {
    answers = { refund: [refund, lifetime], shipping: [shipping] };
    const dir = scratch();
    const [json, md, xml] = ["r.json", "r.md", "r.xml"].map((name) => join(dir, name)) as [
      string,
      string,
      string,
    ];
    const result = await run([
      dataset(["refund", "shipping"]),
      "--min-coverage",
      "0.9",
      "--report",
      json,
      "--report",
      md,
      "--report",
      xml,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '  refund    0.5       1 of 2 claims grounded\n    dropped "Refunds are accepted for life." (quote_not_found: quote "refunds are accepted for life." in policy)\n',
    );

    expect(JSON.parse(readFileSync(json, "utf8")).cases).toEqual([
      {
        index: 0,
        id: "refund",
        coverage: 0.5,
        citations: 1,
        unsupported: 1,
        dropped: [
          { claim: lifetime.claim, reason: "quote_not_found", quote: lifetime.quote, source: "policy" },
        ],
        failures: ["below_min_coverage"],
        passed: false,
      },
      { index: 1, id: "shipping", coverage: 1, citations: 1, unsupported: 0, passed: true },
    ]);

    expect(readFileSync(md, "utf8")).toContain(
      [
        "### Dropped claims in the lowest cases",
        "",
        "| case | claim (reason) |",
        "|---|---|",
        '| refund | "Refunds are accepted for life." (quote_not_found: quote "refunds are accepted for life." in policy) |',
        "",
      ].join("\n"),
    );

    const suite = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      htmlEntities: true,
    }).parse(readFileSync(xml, "utf8")).testsuites.testsuite;
    expect(suite.testcase[0]).toEqual({
      name: "refund",
      classname: "cases.jsonl",
      failure: {
        type: "below_min_coverage",
        message:
          'coverage 0.5 is below min-coverage 0.9; dropped: "Refunds are accepted for life." (quote_not_found: quote "refunds are accepted for life." in policy)',
        "#text":
          '1 of 2 claims grounded\ndropped "Refunds are accepted for life." (quote_not_found: quote "refunds are accepted for life." in policy)',
      },
    });
  });
});

describe("verified eval --baseline", () => {
  it("lists regressed, added and removed cases, regressed first in the step summary, and fails on regression", async () => {
    const dir = scratch();
    const baseline = join(dir, "baseline.json");
    answers = { refund: [refund, lifetime], shipping: [shipping], hours: [hours] };
    const first = await run([dataset(["refund", "shipping", "hours"]), "--report", baseline]);
    expect(first.code).toBe(0);

    // Now: refund is fixed, shipping loses its grounded claim, hours is gone and cancel is new.
    answers = { refund: [refund], shipping: [weekends], cancel: [] };
    const summary = join(dir, "summary.md");
    writeFileSync(summary, "");
    const md = join(dir, "now.md");
    const json = join(dir, "now.json");
    const second = await run(
      [
        dataset(["refund", "shipping", "cancel"]),
        "--baseline",
        baseline,
        "--fail-on-regression",
        "--report",
        md,
        "--report",
        json,
      ],
      { GITHUB_STEP_SUMMARY: summary },
    );
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(
      [
        `Against the baseline ${baseline} (tolerance 0)`,
        "  1 regressed, 1 improved, 0 otherwise changed, 1 added, 1 removed, 0 unchanged",
        "  shipping  1 -> 0 (-1) REGRESSED",
        '    newly failed: "Support answers on weekends." (quote_not_found: quote "support answers on weekends." in policy)',
        "  refund  0.5 -> 1 (+0.5)",
        "  added: cancel",
        "  removed: hours",
        "",
        "FAIL coverage_mean 0.333 >= min-coverage 0; 1 case regressed by more than 0 against the baseline",
        "",
      ].join("\n"),
    );

    const stepSummary = readFileSync(summary, "utf8");
    expect(stepSummary.split("\n").slice(0, 12)).toEqual([
      "## verified eval: ❌ failed",
      "",
      `### Against the baseline \`${baseline}\` (tolerance 0)`,
      "",
      "1 regressed, 1 improved, 0 otherwise changed, 1 added, 1 removed, 0 unchanged.",
      "",
      "| case | before | after | change | outcome |",
      "|---|---:|---:|---:|---|",
      '| shipping | 1 | 0 | -1 | regressed; newly failed: "Support answers on weekends." (quote_not_found: quote "support answers on weekends." in policy) |',
      "| refund | 0.5 | 1 | +0.5 |  |",
      "",
      "Added: cancel.",
    ]);

    expect(JSON.parse(readFileSync(json, "utf8")).baseline).toEqual({
      file: baseline,
      tolerance: 0,
      fail_on_regression: true,
      regressed: 1,
      changed: [
        {
          label: "shipping",
          before: 1,
          after: 0,
          change: -1,
          regressed: true,
          newly_failed: [
            { claim: weekends.claim, reason: "quote_not_found", quote: weekends.quote, source: "policy" },
          ],
        },
        { label: "refund", before: 0.5, after: 1, change: 0.5, regressed: false, newly_failed: [] },
      ],
      added: ["cancel"],
      removed: ["hours"],
      unchanged: 0,
    });

    // Within a tolerance of 1 nothing regressed, and without --fail-on-regression nothing fails anyway.
    const tolerant = await run([
      dataset(["refund", "shipping", "cancel"]),
      "--baseline",
      baseline,
      "--fail-on-regression",
      "--regression-tolerance",
      "1",
    ]);
    expect(tolerant.code).toBe(0);
    expect(tolerant.stdout).toContain("  0 regressed, 1 improved, 1 otherwise changed, 1 added, 1 removed");
    const reportOnly = await run([dataset(["refund", "shipping", "cancel"]), "--baseline", baseline]);
    expect(reportOnly.code).toBe(0);
    expect(reportOnly.stdout).toContain("REGRESSED");
  });

  it.each([
    {
      name: "--fail-on-regression without --baseline",
      args: ["--fail-on-regression"],
      stderr: "verified eval: --fail-on-regression needs --baseline <report.json> to compare with.\n",
    },
    {
      name: "a missing baseline",
      args: ["--baseline", "/nonexistent/base.json"],
      stderr: "verified eval: cannot read /nonexistent/base.json: no such file (ENOENT)\n",
    },
  ])("exits 2 on $name", async ({ args, stderr }) => {
    const result = await run([dataset(["refund"]), ...args]);
    expect(result).toEqual({ code: 2, stdout: "", stderr });
  });
});
