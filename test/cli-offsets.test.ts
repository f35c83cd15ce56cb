import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBinary } from "./support/run-binary.js";

// `--offsets` on the CLI: `check` (flag or the document's own `offsets`) and the model commands.

const text = "😀 Café\r\n👩🏽‍💻 Orders over $50 ship free.";
const sources = [{ id: "notes", text }];
const quote = "Orders over $50 ship free.";
const document = { sources, claims: [{ quote, source: "notes" }] };
const utf16 = [text.indexOf(quote), text.indexOf(quote) + quote.length];
const codepoint = [
  Array.from(text.slice(0, utf16[0])).length,
  Array.from(text.slice(0, utf16[0])).length + quote.length,
];
const utf8Start = Buffer.byteLength(text.slice(0, utf16[0]));
const utf8 = [utf8Start, utf8Start + Buffer.byteLength(quote)];

describe("verified --offsets", () => {
  it.each([
    ["utf16", utf16],
    ["codepoint", codepoint],
    ["utf8", utf8],
  ])("check --offsets %s counts the citation's range in that unit", async (unit, range) => {
    const run = await runBinary(["check", "--offsets", unit], { input: JSON.stringify(document) });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(run.stdout).citations[0].range).toEqual(range);
  });

  it("check takes the document's own offsets before the flag", async () => {
    const run = await runBinary(["check", "--offsets", "utf8"], {
      input: JSON.stringify({ ...document, offsets: "codepoint" }),
    });
    expect(JSON.parse(run.stdout).citations[0].range).toEqual(codepoint);
  });

  it("rejects an unknown unit as a usage error", async () => {
    const run = await runBinary(["check", "--offsets", "utf32"], { input: JSON.stringify(document) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("utf32");
  });

  it("extract --local --json --offsets codepoint gives Python's slice of each value", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "verified-offsets-")), "notes.txt");
    writeFileSync(file, `${text}\r\nOpened: 2019\r\nCity: 𝔘lm\r\n`);
    const fileText = readFileSync(file, "utf8");
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
      "codepoint",
    ]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const { year, city } = JSON.parse(run.stdout).fields;
    const pythonSlice = (range: [number, number]) =>
      Array.from(fileText)
        .slice(...range)
        .join("");
    expect([pythonSlice(year.range), pythonSlice(city.range)]).toEqual(["2019", "𝔘lm"]);
    expect(fileText.slice(year.range[0], year.range[1])).not.toBe("2019");
  });
});
