import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildFreshness } from "./build-freshness.js";

function tree(files: Record<string, number>): string {
  const root = mkdtempSync(join(tmpdir(), "verified-freshness-"));
  for (const [path, seconds] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "x");
    utimesSync(file, seconds, seconds);
  }
  return root;
}

const built = { "dist/cli/main.js": 2000, "dist/playground/index.html": 2000 };

describe("buildFreshness (npm start)", () => {
  it("is current when every output is newer than every input, so npm start does not rebuild", () => {
    const root = tree({ "src/cli/main.ts": 1000, "package.json": 1000, ...built });
    expect(buildFreshness(root)).toEqual({ current: true, reason: "the build is current" });
  });

  it("is stale when a source changed after the build, naming the file", () => {
    const root = tree({ "src/core/deep/file.ts": 3000, ...built });
    expect(buildFreshness(root)).toEqual({
      current: false,
      reason: `${join("src", "core", "deep", "file.ts")} changed since the last build`,
    });
  });

  it("is stale when an output is missing, as in a fresh clone", () => {
    const root = tree({ "src/cli/main.ts": 1000, "dist/cli/main.js": 2000 });
    expect(buildFreshness(root)).toEqual({ current: false, reason: "dist/playground/index.html is missing" });
  });

  it("is stale when package.json changed after the build", () => {
    const root = tree({ "src/a.ts": 1000, "package.json": 2500, ...built });
    expect(buildFreshness(root).current).toBe(false);
  });
});
