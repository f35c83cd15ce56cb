import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "./support/start-service.js";

// The README's TypeScript example, pasted as it stands into `client.ts` of a project made by `npm init -y`
// ("type": "commonjs", as npm 11 writes it), with this package installed, run by tsx against a service.

const root = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(join(root, "README.md"), "utf8");
const section = readme.slice(readme.indexOf("## From TypeScript"));
const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? "";

let service: RunningService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

describe("README From TypeScript, pasted into an npm init -y project", () => {
  it("runs as client.ts in a CommonJS package and prints what its comment promises", async () => {
    const project = mkdtempSync(join(tmpdir(), "verified-readme-ts-"));
    execFileSync("npm", ["init", "-y"], { cwd: project, stdio: "ignore" });
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    // npm 11 writes "type": "commonjs"; an older npm leaves it out, which means the same to Node.
    writeFileSync(join(project, "package.json"), JSON.stringify({ ...manifest, type: "commonjs" }, null, 2));
    mkdirSync(join(project, "node_modules"));
    symlinkSync(root, join(project, "node_modules", "verified-answers"), "dir");
    writeFileSync(join(project, "client.ts"), example);

    const promised = /\/\/ ("[^"]+") (\[\d+, \d+\])/.exec(example);
    if (promised === null) throw new Error("the README's TypeScript example lost its output comment");
    // Asynchronously: the service runs in this process and must answer meanwhile.
    const { stdout: output } = await promisify(execFile)(
      join(root, "node_modules", ".bin", "tsx"),
      ["client.ts"],
      {
        cwd: project,
        env: { ...process.env, VERIFIED_BASE_URL: service.url },
        encoding: "utf8",
      },
    );
    const [text, range] = [JSON.parse(promised[1] as string), JSON.parse(promised[2] as string)];
    expect(output).toBe(`${text} [ ${range[0]}, ${range[1]} ]\n`);
  });
});
