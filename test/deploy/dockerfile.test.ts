import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPortURL } from "../support/closed-port-url.js";
import { type DockerStage, parseDockerfile } from "./dockerfile.js";

// Images cannot be built or pulled here, so this runs the Dockerfile's own commands, as written, on this
// machine: every stage in a clean temporary root, its COPY lines copying from the repository (minus what
// .dockerignore leaves out) or from the earlier stage, its RUN lines through `sh -c` with the stage's ENV, then
// the runtime stage's ENTRYPOINT + CMD and its HEALTHCHECK. Not exercised: the base image, USER, the
// container's network and filesystem (see docs/deployment.md).
const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const stages = parseDockerfile(readFileSync(join(root, "Dockerfile"), "utf8"));
const runtime = stages.at(-1) as DockerStage;
const scratch = mkdtempSync(join(tmpdir(), "verified-docker-"));
const stageRoots = new Map<string, string>();

/** Where an absolute path of a stage's filesystem lives on this machine. */
function inStage(stage: DockerStage, path: string): string {
  return join(stageRoots.get(stage.name) as string, path);
}

/** The build context as .dockerignore leaves it: its allow-list, without the tests it excludes. */
function copyFromContext(source: string, target: string): void {
  cpSync(join(root, source), target, {
    recursive: true,
    filter: (path) => !/\.test\.ts$/.test(path),
  });
}

/** Runs one stage's instructions the way `docker build` would, in a fresh root. */
async function buildStage(stage: DockerStage): Promise<void> {
  const stageRoot = join(scratch, stage.name);
  stageRoots.set(stage.name, stageRoot);
  let workdir = "/";
  const env: Record<string, string> = {};
  for (const instruction of stage.instructions) {
    const cwd = inStage(stage, workdir);
    if (instruction.kind === "WORKDIR") {
      workdir = instruction.path;
      mkdirSync(inStage(stage, workdir), { recursive: true });
    } else if (instruction.kind === "ENV") {
      Object.assign(env, instruction.values);
    } else if (instruction.kind === "COPY") {
      const destination = join(cwd, instruction.destination);
      for (const source of instruction.sources) {
        const target = instruction.destination.endsWith("/") ? join(destination, source) : destination;
        mkdirSync(dirname(target), { recursive: true });
        if (instruction.from === undefined) copyFromContext(source, target);
        else {
          const from = stages.find((each) => each.name === instruction.from) as DockerStage;
          cpSync(inStage(from, source), target, { recursive: true });
        }
      }
    } else if (instruction.kind === "RUN") {
      await run("sh", ["-c", instruction.command], {
        cwd,
        env: { ...process.env, ...env },
        maxBuffer: 64 * 1024 * 1024,
      });
    }
  }
}

let service: ChildProcess | undefined;
let baseURL = "";
let exited: Promise<number | null>;

beforeAll(async () => {
  for (const stage of stages) await buildStage(stage);
  const url = await closedPortURL();
  baseURL = url;
  const [command, ...args] = [...runtime.entrypoint, ...runtime.cmd];
  // The image listens on 0.0.0.0; here only loopback is used (tests talk to 127.0.0.1 only).
  service = spawn(command === "node" ? process.execPath : (command as string), args, {
    cwd: inStage(runtime, runtime.workdir),
    env: { ...process.env, ...runtime.env, VERIFIED_HOST: "127.0.0.1", VERIFIED_PORT: new URL(url).port },
    stdio: ["ignore", "ignore", "pipe"],
  });
  exited = once(service, "exit").then(([code]) => code as number | null);
  const deadline = Date.now() + 60_000;
  while ((await fetch(`${baseURL}/readyz`).catch(() => undefined))?.status !== 200) {
    if (Date.now() > deadline) throw new Error("the image's start command did not serve within 60 s");
    await delay(100);
  }
}, 600_000);

afterAll(() => {
  service?.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

describe("the Dockerfile, run here", () => {
  it("has a build stage and a runtime stage that copies only dist/ from it", () => {
    expect(stages.map((stage) => stage.name)).toEqual(["build", "runtime"]);
    const fromBuild = runtime.instructions.filter((each) => each.kind === "COPY" && each.from !== undefined);
    expect(fromBuild).toEqual([
      { kind: "COPY", from: "build", sources: ["/app/dist"], destination: "./dist" },
    ]);
  });

  it("installs production dependencies only in the runtime stage", () => {
    const installed = JSON.parse(
      readFileSync(inStage(runtime, "/app/node_modules/.package-lock.json"), "utf8"),
    ) as { packages: Record<string, { dev?: boolean }> };
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const name of Object.keys(manifest.dependencies)) {
      expect(existsSync(inStage(runtime, `/app/node_modules/${name}/package.json`)), name).toBe(true);
    }
    // Dev-only in the lockfile (yaml, say, is a devDependency but also a dependency of @fastify/swagger).
    const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as typeof installed;
    const devOnly = Object.keys(manifest.devDependencies).filter(
      (name) => lock.packages[`node_modules/${name}`]?.dev === true,
    );
    expect(devOnly).toContain("typescript");
    for (const name of devOnly) {
      expect(existsSync(inStage(runtime, `/app/node_modules/${name}`)), name).toBe(false);
    }
    expect(Object.values(installed.packages).filter((entry) => entry.dev)).toEqual([]);
  });

  it("runs as a non-root user, listens on every interface, and starts node itself (exec form)", () => {
    expect(runtime.user).toBe("node");
    expect(runtime.env.VERIFIED_HOST).toBe("0.0.0.0");
    expect(runtime.expose).toEqual([Number(runtime.env.VERIFIED_PORT)]);
    expect(runtime.entrypoint[0]).toBe("node");
    expect(runtime.entrypoint.slice(1)).toEqual(["dist/cli/main.js"]);
    expect(runtime.cmd).toEqual(["serve"]);
  });

  it("answers a create on the local model from the image's start command", async () => {
    const response = await fetch(`${baseURL}/v1/verified`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer local-demo" },
      body: JSON.stringify({
        model: "local",
        messages: [{ role: "user", content: "How long do I have to return a product?" }],
        sources: [{ id: "returns", text: "You can return any product within 30 days of delivery." }],
      }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { grounded: boolean }).grounded).toBe(true);
  });

  it("passes its HEALTHCHECK, which uses node, not curl", async () => {
    const [command, ...args] = runtime.healthcheck;
    expect(command).toBe("node");
    const port = new URL(baseURL).port;
    await expect(
      run(process.execPath, args, { env: { ...process.env, ...runtime.env, VERIFIED_PORT: port } }),
    ).resolves.toBeDefined();
    const closed = new URL(await closedPortURL()).port;
    await expect(
      run(process.execPath, args, { env: { ...process.env, ...runtime.env, VERIFIED_PORT: closed } }),
    ).rejects.toMatchObject({ code: 1 });
  });

  it("exits 0 on SIGTERM, delivered to node itself", async () => {
    service?.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});

describe(".dockerignore", () => {
  it("lets in exactly what the Dockerfile copies from the build context, and no tests", () => {
    const lines = readFileSync(join(root, ".dockerignore"), "utf8")
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("#"));
    const copied = stages.flatMap((stage) =>
      stage.instructions.flatMap((each) =>
        each.kind === "COPY" && each.from === undefined ? each.sources : [],
      ),
    );
    expect(lines[0]).toBe("*");
    expect(
      lines
        .filter((line) => line.startsWith("!"))
        .map((line) => line.slice(1))
        .sort(),
    ).toEqual([...new Set(copied)].sort());
    // The copy above mirrors this one exclusion.
    expect(lines.filter((line) => line !== "*" && !line.startsWith("!"))).toEqual(["src/**/*.test.ts"]);
  });
});
