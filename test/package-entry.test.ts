import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Packs the package as it would be published, installs the tarball into a fresh project and imports every
// path of `exports` by name: what a user gets, not what the repository's own paths happen to resolve.
const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  exports: Record<string, unknown>;
};
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
let project = "";

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "verified-install-"));
  const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", project], { cwd: root });
  const tarball = join(project, stdout.trim().split("\n").pop() as string);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", tarball], {
    cwd: project,
  });
}, 240_000);

afterAll(() => {
  if (project !== "") rmSync(project, { recursive: true, force: true });
});

describe("the installed package", () => {
  it("exports exactly the entry points it documents", () => {
    expect(Object.keys(manifest.exports).sort()).toEqual([".", "./client"]);
  });

  it("checks claims through the main entry, without loading the server", async () => {
    const script = `
      import { verifyClaims, findQuote, verifyFields, MAX_EVAL_CASES, createApp } from "${manifest.name}";
      const sources = [{ id: "policy", text: "Refunds are issued within 30 days of purchase." }];
      const result = verifyClaims(sources, [
        { claim: "Refunds take up to 30 days.", quote: "within 30 days", source: "policy" },
        { claim: "Refunds are instant.", quote: "instantly", source: "policy" },
      ]);
      const fields = verifyFields(sources, { window: { value: "30 days", source: "policy" } });
      const fastifyLoaded = Object.keys(await import("node:module").then((m) => m.createRequire(import.meta.url).cache)).some((p) => p.includes("fastify"));
      console.log(JSON.stringify({ result, range: findQuote(sources[0], "30 days", "strict"), fields, MAX_EVAL_CASES, createApp: typeof createApp, fastifyLoaded }));
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    const output = JSON.parse(stdout);
    expect(output.result.citations).toEqual([
      { claim: "Refunds take up to 30 days.", quote: "within 30 days", source: "policy", range: [19, 33] },
    ]);
    expect(output.result.unsupported).toEqual([
      { claim: "Refunds are instant.", reason: "quote_not_found", quote: "instantly", source: "policy" },
    ]);
    expect(output.range).toEqual([26, 33]);
    expect(output.fields.fields.window).toEqual({
      value: "30 days",
      source: "policy",
      range: [26, 33],
      grounded: true,
    });
    expect(output).toMatchObject({ MAX_EVAL_CASES: 200, createApp: "function", fastifyLoaded: false });
  });

  it("checks a plain answer through the main entry (answer mode)", async () => {
    const script = `
      import { checkAnswer } from "${manifest.name}";
      const sources = [{ id: "policy", text: "Refunds are issued within 30 days of purchase." }];
      const result = checkAnswer(sources, "Refunds are issued within 30 days [policy]. Refunds are paid in gold coins [1].");
      console.log(JSON.stringify(result));
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    const output = JSON.parse(stdout);
    expect(
      output.citations.map((citation: { source: string; range: number[] }) => [
        citation.source,
        citation.range,
      ]),
    ).toEqual([["policy", [0, 46]]]);
    expect(output.unsupported.map((entry: { reason: string }) => entry.reason)).toEqual(["no_support"]);
  });

  it("serves through createApp from the main entry", async () => {
    const script = `
      import { createApp, createModelBackend, defaultServerConfig } from "${manifest.name}";
      const gateway = createModelBackend({ gatewayURL: undefined, gatewayHeaders: {}, gatewayTimeoutMs: 1000 });
      const app = await createApp({ gateway, config: defaultServerConfig });
      const response = await app.inject({ method: "GET", url: "/healthz" });
      console.log(JSON.stringify({ status: response.statusCode, body: response.json() }));
      await app.close();
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ status: 200, body: { status: "ok" } });
  });

  it("imports the client entry by name", async () => {
    const script = `
      import { Verified, VerifiedError, EVAL_PAGE_SIZE } from "${manifest.name}/client";
      console.log(JSON.stringify({ client: typeof new Verified({ baseURL: "http://127.0.0.1:1", apiKey: "k" }).create, error: typeof VerifiedError, EVAL_PAGE_SIZE }));
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ client: "function", error: "function", EVAL_PAGE_SIZE: 200 });
  });

  it("type-checks a TypeScript consumer of both entries with tsc --strict", async () => {
    writeFileSync(
      join(project, "consumer.ts"),
      `import { type Citation, type ClaimsResult, verifyClaims } from "${manifest.name}";
import { type CreateResult, Verified } from "${manifest.name}/client";
const result: ClaimsResult = verifyClaims([{ id: "a", text: "x" }], []);
const first: Citation | undefined = result.citations[0];
const client = new Verified({ baseURL: "http://127.0.0.1:1" });
export const pending: Promise<CreateResult> = client.create({ model: "local", messages: [], sources: [] });
export const range: [number, number] | undefined = first?.range;
`,
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          noEmit: true,
          skipLibCheck: true,
          types: [],
          typeRoots: [join(root, "node_modules", "@types")],
        },
        files: ["consumer.ts"],
      }),
    );
    const outcome = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project }).then(
      () => "ok",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(outcome).toBe("ok");
  });
});
