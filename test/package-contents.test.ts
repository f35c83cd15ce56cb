import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

// What `npm publish` would upload, read from `npm pack --dry-run --json` (scripts skipped: `npm test` has
// built dist already). Only the build, the README, LICENSE, CHANGELOG and docs may ship; tests, their source
// maps, benchmarks and sources may not.
const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  license: string;
};

interface PackedFile {
  path: string;
  mode: number;
}
let packed: PackedFile[] = [];

beforeAll(async () => {
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root });
  const [report] = JSON.parse(stdout) as [{ name: string; version: string; files: PackedFile[] }];
  expect({ name: report.name, version: report.version }).toEqual({
    name: manifest.name,
    version: manifest.version,
  });
  packed = report.files;
}, 120_000);

describe("the published package's files", () => {
  it("are only dist, docs, README, LICENSE, CHANGELOG and package.json", () => {
    const allowed = /^(dist\/|docs\/)|^(README\.md|LICENSE|CHANGELOG\.md|package\.json)$/;
    expect(packed.map((file) => file.path).filter((path) => !allowed.test(path))).toEqual([]);
  });

  it("include no test, test source map, benchmark or TypeScript source", () => {
    const forbidden = /\.test\.|\.e2e\.|(^|\/)(test|bench|fixtures)\/|^src\/|\.reference\.|(?<!\.d)\.ts$/;
    expect(packed.map((file) => file.path).filter((path) => forbidden.test(path))).toEqual([]);
  });

  it("include both entry points with their types, the CLI, the playground and the docs pages", () => {
    const paths = new Set(packed.map((file) => file.path));
    for (const path of [
      "dist/index.js",
      "dist/index.d.ts",
      "dist/client/index.js",
      "dist/client/index.d.ts",
      "dist/cli/main.js",
      "dist/playground/index.html",
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
      "docs/deployment.md",
      "docs/releasing.md",
    ]) {
      expect(paths, path).toContain(path);
    }
  });

  it("keep the command `verified`, executable", () => {
    expect(manifest.bin).toEqual({ verified: "dist/cli/main.js" });
    const cli = packed.find((file) => file.path === manifest.bin.verified);
    expect((cli?.mode ?? 0) & 0o111).toBe(0o111);
  });
});

describe("the release notes", () => {
  it("have a CHANGELOG section for the package's version", () => {
    const changelog = readFileSync(new URL("../CHANGELOG.md", import.meta.url), "utf8");
    expect(changelog).toContain("## [Unreleased]");
    expect(changelog).toMatch(
      new RegExp(`^## \\[${manifest.version.replaceAll(".", "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`, "m"),
    );
  });

  it("name the licence package.json declares", () => {
    expect(manifest.license).toBe("MIT");
    expect(readFileSync(new URL("../LICENSE", import.meta.url), "utf8")).toMatch(/^MIT License\n/);
  });
});
