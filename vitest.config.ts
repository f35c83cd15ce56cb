import { defineConfig } from "vitest/config";

// Two projects, run together by `npm test` (`vitest run`):
//   unit: every module's own tests beside it in src/ (the core, the client, the models, the CLI's pure
//         parts). In process, no build; one worker thread runs many files without reloading shared
//         modules, so the loop stays short (`npm run test:unit`).
//   service: test/, the service over HTTP, the built binary, the browser, the package, the docs checks;
//         each file in its own process, as they start servers and children.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Read from the root only (Vitest creates one pool per kind): unit's thread pool reuses its modules.
    poolOptions: { threads: { isolate: false, maxThreads: 2, minThreads: 1 } },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["src/**/*.test.ts"], pool: "threads" },
      },
      {
        extends: true,
        test: { name: "service", include: ["test/**/*.test.ts"] },
      },
    ],
  },
});
