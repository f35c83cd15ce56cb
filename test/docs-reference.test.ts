import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { TObject } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import {
  CheckRequestSchema,
  CreateRequestSchema,
  EvalRequestSchema,
  ExtractRequestSchema,
  VerificationRequestSchema,
} from "../src/wire/index.js";

// The reference pages must say exactly what the code does: every request field in docs/api.md, every
// environment variable in docs/configuration.md.

const root = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

/** The backticked names in the first column of the first table after `heading`. */
function firstTableNames(page: string, heading: string): string[] {
  const at = page.indexOf(heading);
  if (at < 0) throw new Error(`no heading ${heading}`);
  const next = page.indexOf("\n## ", at + heading.length);
  const section = page.slice(at, next < 0 ? undefined : next);
  const rows = section.slice(section.indexOf("\n|")).split("\n\n")[0] ?? "";
  return [...rows.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1] as string);
}

describe("docs/api.md", () => {
  const api = read("docs/api.md");
  const endpoints: [string, TObject][] = [
    ["## Create: `POST /v1/verified`", CreateRequestSchema],
    ["## Extract: `POST /v1/verified/extract`", ExtractRequestSchema],
    ["## Eval: `POST /v1/verified/eval`", EvalRequestSchema],
    ["## Check: `POST /v1/verified/check`", CheckRequestSchema],
  ];
  it.each(endpoints)("%s lists exactly the request schema's fields, in its order", (heading, schema) => {
    expect(firstTableNames(api, heading)).toEqual(Object.keys(schema.properties));
  });

  it("the Chat Completions section lists exactly the verification object's fields, in its order", () => {
    expect(firstTableNames(api, "## Chat Completions: `POST /v1/chat/completions`")).toEqual(
      Object.keys(VerificationRequestSchema.properties),
    );
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".reference.ts")
      ? [path]
      : [];
  });
}

describe("docs/configuration.md", () => {
  const named = (text: string) =>
    new Set([...text.matchAll(/VERIFIED_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]));
  const inCode = new Set(
    sourceFiles(new URL("../src", import.meta.url).pathname).flatMap((file) => [
      ...named(readFileSync(file, "utf8")),
    ]),
  );
  const documented = named(read("docs/configuration.md"));

  it("documents every environment variable the code reads", () => {
    expect([...inCode].filter((name) => !documented.has(name)).sort()).toEqual([]);
  });

  it("documents no variable the code does not read", () => {
    expect([...documented].filter((name) => !inCode.has(name)).sort()).toEqual([]);
  });
});
