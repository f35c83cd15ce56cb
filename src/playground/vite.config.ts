import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { API_PATHS } from "../api-paths.js";

const root = fileURLToPath(new URL(".", import.meta.url));
const service = process.env.VERIFIED_BASE_URL ?? "http://127.0.0.1:8787";

/** Builds the playground into dist/playground, which the service serves at `/`. */
export default defineConfig({
  root,
  // Relative asset URLs, so the page also works when the service sits behind a path prefix.
  base: "./",
  build: {
    outDir: fileURLToPath(new URL("../../dist/playground", import.meta.url)),
    emptyOutDir: true,
    // Everything is bundled: the page must work offline, with no CDN.
    assetsInlineLimit: 0,
    target: "es2022",
  },
  // `vite --config src/playground/vite.config.ts` serves the page with hot reload against a running service.
  server: {
    proxy: Object.fromEntries(Object.values(API_PATHS).map((path) => [path, service])),
  },
});
