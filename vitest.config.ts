import { defineConfig } from "vitest/config";

// Two projects, run together by `npm test` (`vitest run`):
//   unit: every module's own tests beside it in src/ (the core, the client, the models, the CLI's pure
//         parts). In process, no build; worker threads (one on 2 cores) run the files without reloading
//         shared modules, so the loop stays short (`npm run test:unit`).
//   service: test/, the service over HTTP, the built binary, the browser, the package, the docs checks;
//         each file in its own process, as they start servers and children.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Read from the root only (Vitest creates one pool per kind): unit's thread pool reuses its modules.
    poolOptions: { threads: { isolate: false } },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["src/**/*.test.ts", "scripts/**/*.test.ts"], pool: "threads" },
      },
      {
        extends: true,
        // At most 2 concurrent tests of a file at once (the CLI's, which wait on child processes): one
        // child per core of a 2-core machine, and no more, so that a loaded machine does not time them out.
        test: { name: "service", include: ["test/**/*.test.ts"], maxConcurrency: 2 },
      },
    ],
  },
});
