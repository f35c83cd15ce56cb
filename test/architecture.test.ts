import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findCycles, readImportGraph } from "./support/import-graph.js";

// The layout rules of ARCHITECTURE.md, checked on the real import graph of src (production modules).
const srcRoot = fileURLToPath(new URL("../src", import.meta.url));
const graph = readImportGraph(srcRoot);

/** The concept folders, and which others each may import (besides itself and the shared top-level modules). */
const shared = new Set(["api-paths.ts", "limits.ts", "sample.ts", "util.ts"]);
const allowed: Record<string, string[]> = {
  errors: [],
  core: [],
  wire: ["errors"],
  models: ["core", "errors"],
  service: ["core", "models", "errors", "wire"],
  server: ["core", "models", "service", "wire", "errors"],
  client: ["core", "errors"],
  cli: ["client", "core", "models", "service", "server", "wire", "errors"],
  playground: ["client", "core", "errors"],
};
const topFolder = (file: string): string => (file.includes("/") ? (file.split("/")[0] as string) : "");

describe("the source layout", () => {
  it("has no import cycle between modules", () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it.each(Object.keys(allowed))("%s imports only the folders its layer allows", (folder) => {
    const crossings = graph
      .filter((node) => topFolder(node.file) === folder)
      .flatMap((node) => node.imports.map((target) => ({ from: node.file, to: target })))
      .filter(({ to }) => topFolder(to) !== folder && !shared.has(to))
      .filter(({ to }) => !allowed[folder]?.includes(topFolder(to)));
    expect(crossings).toEqual([]);
  });

  it("reaches into another folder only through its index.ts", () => {
    const deep = graph.flatMap((node) =>
      node.imports
        .filter((target) => !`${dirname(node.file)}/`.startsWith(`${dirname(target)}/`))
        .filter((target) => !target.endsWith("/index.ts") && !shared.has(target))
        // The package entry takes the server's config without the face that loads Fastify.
        .filter((target) => !(node.file === "index.ts" && target === "server/config.ts"))
        .map((target) => `${node.file} -> ${target}`),
    );
    expect(deep).toEqual([]);
  });

  // Tests sit beside their modules but do not count: a folder splits by concept when its code outgrows its
  // name, never because it is well tested.
  it("keeps every folder to about fifteen production files", () => {
    const crowded: string[] = [];
    const walk = (folder: string): void => {
      const entries = readdirSync(folder, { withFileTypes: true });
      const files = entries.filter((entry) => entry.isFile() && !entry.name.endsWith(".test.ts"));
      if (folder !== srcRoot && files.length > 16) crowded.push(`${folder}: ${files.length}`);
      for (const entry of entries) if (entry.isDirectory()) walk(join(folder, entry.name));
    };
    walk(srcRoot);
    expect(crowded).toEqual([]);
  });

  // V8's optimized String.prototype.codePointAt reads past the end of a sliced string (Node 24), so a quote
  // cut inside an emoji matched the whole emoji: code points are read by the core's own codePointAt.
  it("reads code points only through the core's codePointAt", () => {
    const callers = graph
      .filter((node) => node.file !== "core/text/characters.ts")
      .filter((node) => readFileSync(join(srcRoot, node.file), "utf8").includes(".codePointAt("))
      .map((node) => node.file);
    expect(callers).toEqual([]);
  });
});
