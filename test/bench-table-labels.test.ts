// The table-claims bench prints its slices with the word the README and docs use for them: a slice of claims
// that should be kept counts "kept", the slice of false claims that should be dropped counts "caught" (its
// cells are the share dropped, not the share kept), so a figure pasted from the bench reads as the docs say.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SLICES, sliceCount, sliceLabel } from "../bench/table-claims.bench.js";

const root = join(import.meta.dirname, "..");
const pages = ["README.md", ...readdirSync(join(root, "docs")).map((name) => join("docs", name))].filter(
  (name) => name.endsWith(".md"),
);

describe("the table-claims bench's slice labels", () => {
  it("are the labels the README and docs print for its slices, word for word", () => {
    const printed: string[] = [];
    for (const page of pages) {
      for (const line of readFileSync(join(root, page), "utf8").split("\n")) {
        const slice = SLICES.find((each) => line.startsWith(`| ${each.name}:`));
        if (slice === undefined) continue;
        printed.push(line);
        expect(line.split(" | ")[0], page).toBe(`| ${sliceLabel(slice)}`);
      }
    }
    expect(printed.length).toBeGreaterThanOrEqual(2);
  });

  it("count caught claims, not kept ones, in the slice that should be dropped", () => {
    const [trueOnRow, , falseDiffering] = SLICES;
    expect(sliceLabel(falseDiffering)).toBe("false claims whose numbers differ from their true twin: caught");
    expect(sliceCount(falseDiffering, 30, 100)).toBe(70);
    expect(sliceLabel(trueOnRow)).toBe("true claims, every number on the quoted row: kept");
    expect(sliceCount(trueOnRow, 30, 100)).toBe(30);
  });
});
