import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBinary } from "./support/run-binary.js";

const sources = [{ id: "policy", text: "Refunds are accepted within 30 days of purchase." }];
const claimsDocument = {
  sources,
  claims: [
    { claim: "Refunds take 30 days.", quote: "within 30 days", source: "policy" },
    { claim: "Refunds take 60 days.", quote: "within 60 days", source: "policy" },
  ],
};
const claimsResult = {
  text: "Refunds take 30 days [policy].",
  citations: [{ claim: "Refunds take 30 days.", quote: "within 30 days", source: "policy", range: [21, 35] }],
  unsupported: [
    { claim: "Refunds take 60 days.", reason: "quote_not_found", quote: "within 60 days", source: "policy" },
  ],
  coverage: 0.5,
};
const fieldsDocument = { sources, fields: { window: { value: "30 days", source: "policy" } } };
const fieldsResult = {
  fields: { window: { value: "30 days", source: "policy", range: [28, 35], grounded: true } },
  coverage: 1,
};

describe("verified check", () => {
  it("checks a claims document from stdin", async () => {
    const run = await runBinary(["check"], { input: JSON.stringify(claimsDocument) });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(run.stdout)).toEqual(claimsResult);
  });

  it("checks a fields document from a file", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "verified-check-")), "fields.json");
    writeFileSync(file, JSON.stringify(fieldsDocument));
    const run = await runBinary(["check", file]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(run.stdout)).toEqual(fieldsResult);
  });

  it("names the line of invalid JSON and exits 2", async () => {
    const run = await runBinary(["check"], { input: '{\n  "sources": [],\n  "claims": [,]\n}' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^verified check: stdin: line 3: invalid JSON: .+\n$/);
  });

  it("names the field of a wrong-shaped document and exits 2", async () => {
    const run = await runBinary(["check"], {
      input: JSON.stringify({ sources, claims: [{ quote: 5, source: "policy" }] }),
    });
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: 'verified check: stdin: line 1: "claims[0].quote" must be a string; got 5.\n',
    });
  });

  it("rejects duplicate source ids", async () => {
    const run = await runBinary(["check"], {
      input: JSON.stringify({ sources: [...sources, ...sources], claims: [] }),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"sources[1].id" repeats an earlier source id');
  });

  it("says so when the file is missing", async () => {
    const run = await runBinary(["check", "/nonexistent/doc.json"]);
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: "verified check: cannot read /nonexistent/doc.json: ENOENT\n",
    });
  });

  it("with --jsonl answers line by line, reports a bad line in place and goes on", async () => {
    const input = [JSON.stringify(claimsDocument), "{not json", "", JSON.stringify(fieldsDocument), ""].join(
      "\n",
    );
    const run = await runBinary(["check", "--jsonl"], { input });
    expect(run.code).toBe(2);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual(claimsResult);
    expect(lines[1]).toMatchObject({ error: { type: "invalid_request", code: "invalid_request", line: 2 } });
    expect(lines[2]).toEqual(fieldsResult);
    expect(run.stderr).toMatch(/^verified check: stdin: line 2: invalid JSON: .+\n$/);
  });

  it("with --jsonl exits 0 when every line is good", async () => {
    const input = `${JSON.stringify(claimsDocument)}\n${JSON.stringify(claimsDocument)}\n`;
    const run = await runBinary(["check", "--jsonl"], { input });
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(2);
  });

  it("with --explain names the number that failed and the line it was checked against", async () => {
    const document = {
      sources,
      claims: [{ claim: "Refunds take 45 days.", quote: "within 30 days", source: "policy" }],
      check_numbers: "row",
    };
    const run = await runBinary(["check", "--explain"], { input: JSON.stringify(document) });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).unsupported).toEqual([
      {
        claim: "Refunds take 45 days.",
        reason: "number_not_found",
        detail: { number: "45", checked: "line", text: sources[0]?.text },
        quote: "within 30 days",
        source: "policy",
      },
    ]);
    expect(run.stderr).toBe(
      `verified check: stdin: dropped "Refunds take 45 days.": 45 is not on the quoted line: "${sources[0]?.text}"\n`,
    );
  });

  it("without --explain keeps the reason code only", async () => {
    const document = {
      sources,
      claims: [{ claim: "Refunds take 45 days.", quote: "within 30 days", source: "policy" }],
      check_numbers: "quote",
    };
    const run = await runBinary(["check"], { input: JSON.stringify(document) });
    expect(JSON.parse(run.stdout).unsupported).toEqual([
      {
        claim: "Refunds take 45 days.",
        reason: "number_not_found",
        quote: "within 30 days",
        source: "policy",
      },
    ]);
  });

  it("exits 2 with one line on an unknown option", async () => {
    const run = await runBinary(["check", "--nope"]);
    expect(run).toEqual({ code: 2, stdout: "", stderr: "error: unknown option '--nope'\n" });
  });

  it("prints help for check, with its exit codes and an example that works as printed", async () => {
    const run = await runBinary(["check", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: verified check [options] [file]");
    expect(run.stdout).toContain(
      "Exit codes: 0 checked (whatever the verdicts), 2 unreadable or malformed input (with --jsonl: any bad line).",
    );
    const example = /^ {2}echo '(.+)' \| verified check$/m.exec(run.stdout)?.[1] ?? "";
    expect(example).not.toBe("");
    const checked = await runBinary(["check"], { input: example });
    expect(checked.code).toBe(0);
    const policy = JSON.parse(example).sources[0].text as string;
    const start = policy.indexOf("within 30 days");
    expect(JSON.parse(checked.stdout)).toMatchObject({
      citations: [{ quote: "within 30 days", source: "policy", range: [start, start + 14] }],
      unsupported: [],
      coverage: 1,
    });
  });
});
