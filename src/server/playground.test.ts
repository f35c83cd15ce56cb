import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerPlayground } from "./playground.js";

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "playground-"));
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "index.html"), "<!doctype html><title>page</title>");
  writeFileSync(join(root, "assets", "index-abc.js"), "console.log(1)");
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

async function appWith(playgroundRoot: string): Promise<FastifyInstance> {
  const app = Fastify();
  registerPlayground(app, { root: playgroundRoot });
  app.post("/v1/verified", async () => ({ ok: true }));
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send({ error: { type: "not_found", code: "not_found", message: `No ${request.url}` } });
  });
  await app.ready();
  return app;
}

describe("registerPlayground", () => {
  it("serves index.html at / with a strict content security policy", async () => {
    const app = await appWith(root);
    const response = await app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(response.body).toBe("<!doctype html><title>page</title>");
    await app.close();
  });

  it("serves hashed assets with a long cache lifetime", async () => {
    const app = await appWith(root);
    const response = await app.inject({ method: "GET", url: "/assets/index-abc.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.body).toBe("console.log(1)");
    await app.close();
  });

  it("leaves other paths and the API routes to the app", async () => {
    const app = await appWith(root);
    const missing = await app.inject({ method: "GET", url: "/nope.js" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: { type: "not_found", code: "not_found", message: "No /nope.js" },
    });
    const traversal = await app.inject({ method: "GET", url: "/../package.json" });
    expect(traversal.statusCode).toBe(404);
    const api = await app.inject({ method: "POST", url: "/v1/verified", payload: {} });
    expect(api.json()).toEqual({ ok: true });
    await app.close();
  });

  it("serves nothing, and does not fail, when the playground was not built", async () => {
    const app = await appWith(join(root, "missing"));
    const response = await app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(404);
    await app.close();
  });
});
