import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** Where to find the built playground; the default suits both dist/server and src/server. */
export interface PlaygroundOptions {
  root?: string;
}

// From dist/server/ this is dist/playground/; from src/server/ (tests on sources) it is the same folder,
// since both sit two levels below the package root.
const defaultRoot = fileURLToPath(new URL("../../dist/playground", import.meta.url));

// The page loads only its own bundled assets and calls only this origin.
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Serves the built playground (`vite build` output) at `/`. Only the files present at startup get routes,
 * so every other path keeps the app's own 404/405 handling. When the playground has not been built, it
 * serves nothing and logs why; the API works regardless.
 */
export function registerPlayground(app: FastifyInstance, options: PlaygroundOptions = {}): void {
  const root = options.root ?? defaultRoot;
  if (!existsSync(join(root, "index.html"))) {
    app.log.info({ root }, "playground not built, not serving it at /; run npm run build");
    return;
  }
  app.register(fastifyStatic, {
    root,
    prefix: "/",
    wildcard: false,
    index: "index.html",
    decorateReply: false,
    cacheControl: false,
    setHeaders(response, filePath) {
      response.setHeader("x-content-type-options", "nosniff");
      if (filePath.endsWith(".html")) {
        response.setHeader("cache-control", "no-cache");
        response.setHeader("content-security-policy", contentSecurityPolicy);
        response.setHeader("referrer-policy", "no-referrer");
      } else {
        // Vite names assets by content hash, so a changed file is a new URL.
        response.setHeader("cache-control", "public, max-age=31536000, immutable");
      }
    },
  });
}
