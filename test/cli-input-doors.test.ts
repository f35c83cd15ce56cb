import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBinary } from "./support/run-binary.js";

// The CLI's input doors (issue 34 items 7 and 8). Every command that reads a plain text `--source` file keeps
// its byte-order mark, so `--offsets utf8` ranges slice the file's own bytes (a dropped BOM put every range 3
// bytes off); `verified check --answer` is tested in cli-check.test.ts, these are `extract` and `ask`, and a
// source file that is not UTF-8 is refused by each, naming the byte. An eval dataset's `expected` answer is
// held to the service's limit, naming the line.

const directory = mkdtempSync(join(tmpdir(), "verified-bom-"));
const bom = "\uFEFF";

/** The file's bytes at `range`, as text. */
const bytesOf = (path: string, [start, end]: [number, number]) =>
  readFileSync(path).subarray(start, end).toString("utf8");

describe("a text source file with a BOM, --offsets utf8", () => {
  it("extract --local: each field's range slices the file's bytes", async () => {
    const file = join(directory, "café.txt");
    writeFileSync(file, `${bom}Café Lumière\r\nOpened: 2019\r\nCity: Lyon\r\n`);
    const run = await runBinary([
      "extract",
      "--source",
      file,
      "--field",
      "year=the year it opened",
      "--field",
      "city=the city",
      "--local",
      "--json",
      "--offsets",
      "utf8",
    ]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const { year, city } = JSON.parse(run.stdout).fields;
    expect([bytesOf(file, year.range), bytesOf(file, city.range)]).toEqual(["2019", "Lyon"]);
  });

  it("ask --local: each citation's range slices the file's bytes", async () => {
    const file = join(directory, "policy.txt");
    writeFileSync(file, `${bom}Café refunds are accepted within 30 days of purchase.\n`);
    const run = await runBinary([
      "ask",
      "How long do refunds take?",
      "--source",
      file,
      "--local",
      "--json",
      "--offsets",
      "utf8",
    ]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const { citations } = JSON.parse(run.stdout);
    expect(citations.length).toBeGreaterThan(0);
    for (const citation of citations) expect(bytesOf(file, citation.range)).toBe(citation.quote);
  });

  it.each([["extract"], ["ask"]])(
    "%s refuses a source file that is not UTF-8, naming the byte",
    async (command) => {
      const file = join(directory, `latin1-${command}.txt`);
      writeFileSync(file, Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x2e]));
      const args =
        command === "extract"
          ? ["extract", "--source", file, "--field", "x=anything", "--local"]
          : ["ask", "What?", "--source", file, "--local"];
      const run = await runBinary(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${file}: not valid UTF-8: the byte at offset 3 (0xe9)`);
    },
  );
});

describe("verified eval: an expected answer over the limit (issue 34 item 7)", () => {
  it("refuses a dataset line whose expected answer is over 1,000 characters, naming the line", async () => {
    const file = join(directory, "long-expected.jsonl");
    const item = { messages: [{ role: "user", content: "q" }], sources: [{ id: "a", text: "Lyon." }] };
    writeFileSync(
      file,
      `${JSON.stringify({ ...item, expected: "Lyon" })}\n${JSON.stringify({ ...item, expected: ["Lyon", "x".repeat(1_001)] })}\n`,
    );
    const run = await runBinary(["eval", file, "--local"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}: line 2: `);
    expect(run.stderr).toContain("the limit is 1000");
  });
});
