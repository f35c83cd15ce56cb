import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Every relative link in the README and docs/ points at a file that exists, and every #anchor at a heading
// of that page (GitHub's slugs), so moving a section cannot leave a dead link behind.

const root = new URL("../", import.meta.url).pathname;
const pages = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** GitHub's heading anchor: lower-cased, punctuation other than `-` and `_` removed, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(path: string): Set<string> {
  const text = readFileSync(path, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1] as string)));
}

function linksOf(page: string): string[] {
  const text = readFileSync(join(root, page), "utf8").replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z]+:/.test(target));
}

describe("documentation links", () => {
  it.each(pages)("%s links only to files and headings that exist", (page) => {
    const dead = linksOf(page).filter((target) => {
      const [file, anchor] = target.split("#") as [string, string | undefined];
      const path = file === "" ? join(root, page) : join(dirname(join(root, page)), file);
      if (!existsSync(path)) return true;
      return anchor !== undefined && path.endsWith(".md") && !anchorsOf(path).has(anchor);
    });
    expect(dead.map((target) => `${relative(root, join(root, page))} → ${target}`)).toEqual([]);
  });
});
