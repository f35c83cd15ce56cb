import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runBinary } from "./support/run-binary.js";

// What a new user meets first: the Install section and `verified --version`.

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
};

describe("README Install", () => {
  const install = readme.slice(readme.indexOf("## Install"), readme.indexOf("## Quick start"));

  it("says the package is not published yet and gives the clone and tarball routes before npm install", () => {
    expect(install).toMatch(/not on the npm registry yet/);
    const cloneAt = install.indexOf("git clone");
    const tarballAt = install.indexOf(`npm install ../verified/${manifest.name}-${manifest.version}.tgz`);
    expect(cloneAt).toBeGreaterThan(0);
    expect(tarballAt).toBeGreaterThan(cloneAt);
    // No command block opens with the registry route: it works only once the package is published.
    expect(install).not.toMatch(/```sh\s*npm install verified-answers/);
    expect(install).toMatch(/Once it is published, `npm install verified-answers`/);
  });
});

describe("verified --version", () => {
  it("prints the package's version and exits 0", async () => {
    for (const flag of ["--version", "-V"]) {
      const run = await runBinary([flag]);
      expect(run).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" });
    }
  });
});
