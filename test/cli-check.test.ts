import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
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

// Each test below spawns the built binary and waits for it, sharing nothing with the others: they run
// concurrently (two at a time, the service project's maxConcurrency), so the file waits on two children at
// once; each has twice the default timeout, as a child may share the machine with the other.
describe.concurrent("verified check", { timeout: 40_000 }, () => {
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
    const run = await runBinary(["check", "--xyzzy"]);
    expect(run).toEqual({ code: 2, stdout: "", stderr: "error: unknown option '--xyzzy'\n" });
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

describe("verified check with a plain answer", () => {
  const facts = "Paris is the capital of France. It has about two million inhabitants.\n";
  const report = "Revenue in Q3 was 12.5 million. Profit was 2 million.\n";
  const answerText =
    "Paris is the capital of France [1]. Revenue in Q3 was 12.5 million [facts.md]. Profit was 2 million in Zorgland [2].\n";
  const answerSources = [
    { id: "facts.md", text: facts },
    { id: "report_q3.txt", text: report },
  ];
  const answerResult = {
    text: "Paris is the capital of France [1].\n",
    citations: [
      {
        claim: "Paris is the capital of France.",
        quote: "Paris is the capital of France.",
        source: "facts.md",
        range: [0, 31],
        support: 1,
        answer_range: [0, 35],
      },
    ],
    unsupported: [
      {
        claim: "Revenue in Q3 was 12.5 million.",
        reason: "wrong_source",
        source: "report_q3.txt",
        quote: "Revenue in Q3 was 12.5 million.",
        range: [0, 31],
        support: 1,
        answer_range: [36, 78],
        detail: { found_in: ["report_q3.txt"] },
      },
      { claim: "Profit was 2 million in Zorgland.", reason: "entity_not_found", answer_range: [79, 116] },
    ],
    partial: [],
    coverage: 1 / 3,
  };
  const directory = mkdtempSync(join(tmpdir(), "verified-check-answer-"));
  const file = (name: string, text: string) => {
    const path = join(directory, name);
    writeFileSync(path, text);
    return path;
  };
  const answerFile = file("answer.md", answerText);
  const factsFile = file("facts.md", facts);
  const reportFile = file("report_q3.txt", report);
  mkdirSync(join(directory, "other"));
  file("other/facts.md", facts);
  /** `verified check --answer ANSWER --source …` with the given sources (both by default) and flags. */
  const checkAnswerFile = (answer: string, flags: string[] = [], sourceFiles = [factsFile, reportFile]) =>
    runBinary(["check", "--answer", answer, ...sourceFiles.flatMap((path) => ["--source", path]), ...flags]);

  it("checks --answer against --source files, each named by its file name", async () => {
    const run = await checkAnswerFile(answerFile);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(run.stdout)).toEqual(answerResult);
  });

  it("takes several files after one --source, as ask does", async () => {
    const run = await runBinary(["check", "--answer", answerFile, "--source", factsFile, reportFile]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(run.stdout)).toEqual(answerResult);
  });

  it("names the words of a partly supported sentence, or drops it with --partial drop", async () => {
    const partly = file("partly.md", "Paris is the capital of France and of fashion [1].\n");
    const kept = JSON.parse((await checkAnswerFile(partly)).stdout);
    expect(kept.partial).toEqual([
      { claim: "Paris is the capital of France and of fashion.", term: "fashion", answer_range: [38, 45] },
    ]);
    expect(kept.unsupported).toEqual([]);
    const dropped = JSON.parse((await checkAnswerFile(partly, ["--partial", "drop"])).stdout);
    expect(dropped.partial).toEqual([]);
    expect(dropped.unsupported.map((entry: { reason: string }) => entry.reason)).toEqual(["partial_support"]);
  });

  it("reads an equivalent number form, checks each clause at its own marker and pools support over a page", async () => {
    const city = file(
      "city.md",
      "Paris is the capital of France. The city hosts many museums. It has about two million inhabitants. Its river is the Seine. Its metro opened in 1900.\n",
    );
    const answer = file(
      "equivalent.md",
      "Revenue in Q3 was 12.5M [2]. Paris is the capital of France [1], and profit was 2 million [2]. The city hosts many museums, and its metro opened in 1900 [1].\n",
    );
    const run = await checkAnswerFile(answer, [], [city, reportFile]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const result = JSON.parse(run.stdout);
    const pooled = "The city hosts many museums, and its metro opened in 1900.";
    expect(
      result.citations.map((citation: { claim: string; quote: string; source: string }) => [
        citation.claim,
        citation.quote,
        citation.source,
      ]),
    ).toEqual([
      ["Revenue in Q3 was 12.5M.", "Revenue in Q3 was 12.5 million.", "report_q3.txt"],
      ["Paris is the capital of France", "Paris is the capital of France.", "city.md"],
      ["and profit was 2 million.", "Profit was 2 million.", "report_q3.txt"],
      [pooled, "The city hosts many museums.", "city.md"],
      [pooled, "Its metro opened in 1900.", "city.md"],
    ]);
    expect(result).toMatchObject({ unsupported: [], partial: [], coverage: 1 });
  });

  it("with --explain names a kept claim's unsupported words on stderr; refuses a --partial that is not keep or drop", async () => {
    const partly = file(
      "partly-explained.md",
      "Paris is the capital of France and of fashion and food [1].\n",
    );
    const kept = await checkAnswerFile(partly, ["--explain"]);
    expect(kept.code).toBe(0);
    expect(kept.stderr).toBe(
      `verified check: ${partly}: kept "Paris is the capital of France and of fashion and food." partly: no span of its sources holds "fashion", "food"\n`,
    );
    const dropped = await checkAnswerFile(partly, ["--explain", "--partial", "drop"]);
    expect(dropped.stderr).toBe(
      `verified check: ${partly}: dropped "Paris is the capital of France and of fashion and food.": no span of its sources holds "fashion", "food"\n`,
    );
    const refused = await checkAnswerFile(partly, ["--partial", "flag"]);
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toContain("Allowed choices are keep, drop");
  });

  it("with --explain says when a strict quotation differs from its source only in case; --mode lenient keeps it", async () => {
    const quoted = file("quoted.md", 'The source says "paris is the capital of France" [1].\n');
    const strict = await checkAnswerFile(quoted, ["--explain"]);
    expect(strict.code).toBe(0);
    expect(JSON.parse(strict.stdout).unsupported[0]).toMatchObject({
      reason: "quote_not_found",
      detail: {
        quotation: "paris is the capital of France",
        differs_only_in: "first_letter_case",
        source_text: "Paris is the capital of France",
      },
    });
    expect(strict.stderr).toBe(
      `verified check: ${quoted}: dropped "The source says \\"paris is the capital of France\\".": the quotation "paris is the capital of France" differs from its cited source's "Paris is the capital of France" only in the case of its first letter (lenient mode keeps it)\n`,
    );
    const lenient = await checkAnswerFile(quoted, ["--explain", "--mode", "lenient"]);
    expect(lenient).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(lenient.stdout)).toMatchObject({ unsupported: [], coverage: 1 });
  });

  it("with --explain describes each dropped sentence on stderr and keeps its detail", async () => {
    const run = await checkAnswerFile(answerFile, ["--explain"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).unsupported[1].detail).toEqual({ entity: "Zorgland" });
    expect(run.stderr).toBe(
      [
        `verified check: ${answerFile}: dropped "Revenue in Q3 was 12.5 million.": its cited source does not support it; report_q3.txt does`,
        `verified check: ${answerFile}: dropped "Profit was 2 million in Zorgland.": "Zorgland" is in no source and not in the question`,
        "",
      ].join("\n"),
    );
  });

  it("with --question, the question's words are context, not new facts", async () => {
    const answer = file("asked.md", "Paris, unlike Zorgland, is the capital of France [facts.md].");
    const alone = await checkAnswerFile(answer, [], [factsFile]);
    expect(JSON.parse(alone.stdout)).toMatchObject({ unsupported: [{ reason: "entity_not_found" }] });
    const asked = await checkAnswerFile(answer, ["--question", "Is Zorgland the capital?"], [factsFile]);
    expect(asked.code).toBe(0);
    expect(JSON.parse(asked.stdout)).toMatchObject({ unsupported: [], coverage: 1 });
  });

  it("checks numbers against the supporting source unless --no-check-numbers", async () => {
    const answer = file("numbers.md", "Profit was 9 million [report_q3.txt].");
    const checked = await checkAnswerFile(answer, [], [reportFile]);
    expect(JSON.parse(checked.stdout).unsupported).toEqual([
      expect.objectContaining({ reason: "number_not_found", answer_range: [0, 37] }),
    ]);
    const unchecked = await checkAnswerFile(answer, ["--no-check-numbers"], [reportFile]);
    expect(JSON.parse(unchecked.stdout)).toMatchObject({ unsupported: [], coverage: 1 });
  });

  it("with a BOM in the files, utf8 ranges still slice each file's bytes", async () => {
    const bom = "\uFEFF";
    const answer = file("bom-answer.md", `${bom}Café opened in 1999 [cafe.txt].`);
    const source = file("cafe.txt", `${bom}The Café opened in 1999 by the river.`);
    const run = await checkAnswerFile(answer, ["--offsets", "utf8"], [source]);
    expect(run.code).toBe(0);
    const [citation] = JSON.parse(run.stdout).citations;
    const bytesOf = (path: string, [start, end]: [number, number]) =>
      readFileSync(path).subarray(start, end).toString("utf8");
    expect(bytesOf(source, citation.range)).toBe(citation.quote);
    expect(bytesOf(answer, citation.answer_range)).toBe("Café opened in 1999 [cafe.txt].");
  });

  it("refuses a file that is not UTF-8, naming the offset of the first bad byte", async () => {
    const latin1 = join(directory, "latin1.md");
    writeFileSync(latin1, Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x2e]));
    const run = await checkAnswerFile(latin1, [], [factsFile]);
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: `verified check: ${latin1}: not valid UTF-8: the byte at offset 3 (0xe9) does not belong to a UTF-8 character; save the file as UTF-8.\n`,
    });
  });

  it.each([
    ["no --source", ["--answer", "answer.md"], "verified check: --answer needs at least one --source FILE\n"],
    [
      "two sources with one id",
      ["--answer", "answer.md", "--source", "facts.md", "--source", "other/facts.md"],
      'verified check: other/facts.md: source id "facts.md" is already used by facts.md; ids must be unique (rename the file or change its id).\n',
    ],
    [
      "a document and --answer",
      ["doc.json", "--answer", "answer.md", "--source", "facts.md"],
      "verified check: give either a JSON document (FILE or --jsonl) or --answer with --source files, not both\n",
    ],
    [
      "an answer-only flag without --answer",
      ["--mode", "lenient"],
      "verified check: --mode goes with --answer; a JSON document sets it itself\n",
    ],
    [
      "a missing source file",
      ["--answer", "answer.md", "--source", "missing.md"],
      "verified check: cannot read missing.md: no such file (ENOENT)\n",
    ],
  ])("exits 2 with one line on %s", async (_name, args, stderr) => {
    const run = await runBinary(["check", ...args], { cwd: directory });
    expect(run).toEqual({ code: 2, stdout: "", stderr });
  });

  it("checks JSONL documents with an answer, one result per line", async () => {
    const document = { sources: answerSources, answer: answerText };
    const asked = {
      sources: answerSources,
      answer: "Paris, unlike Zorgland, is the capital of France [1].",
      messages: [{ role: "user", content: "Is Zorgland the capital?" }],
    };
    const both = { sources: answerSources, answer: answerText, claims: [] };
    const input = [document, asked, both].map((line) => JSON.stringify(line)).join("\n");
    const run = await runBinary(["check", "--jsonl"], { input });
    expect(run.code).toBe(2);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      answerResult,
      {
        text: asked.answer,
        citations: [expect.objectContaining({ source: "facts.md", answer_range: [0, 53] })],
        unsupported: [],
        // "unlike" is the answer's own word: kept, and named.
        partial: [
          {
            claim: "Paris, unlike Zorgland, is the capital of France.",
            term: "unlike",
            answer_range: [7, 13],
          },
        ],
        coverage: 1,
      },
      {
        error: {
          type: "invalid_request",
          code: "invalid_request",
          message: 'the document has both "claims" and "answer"; give exactly one',
          param: "answer",
          line: 3,
        },
      },
    ]);
  });
});
