import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** What `npm run build` reads: a change to any of them makes the build stale. */
export const BUILD_INPUTS = [
  "src",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

/** What `npm run build` writes and `npm start` runs: the CLI and the playground. */
export const BUILD_OUTPUTS = ["dist/cli/main.js", "dist/playground/index.html"];

function newestFile(path: string): { path: string; mtimeMs: number } | undefined {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    return undefined;
  }
  if (!stats.isDirectory()) return { path, mtimeMs: stats.mtimeMs };
  let newest: { path: string; mtimeMs: number } | undefined;
  for (const name of readdirSync(path)) {
    const found = newestFile(join(path, name));
    if (found !== undefined && (newest === undefined || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}

/**
 * Whether the build under `root` is current: every output exists and none is older than the newest input.
 * When it is not, `reason` says why in a few words (for `npm start`'s one line on stderr).
 */
export function buildFreshness(root: string): { current: boolean; reason: string } {
  let oldestOutput = Number.POSITIVE_INFINITY;
  for (const output of BUILD_OUTPUTS) {
    const found = newestFile(join(root, output));
    if (found === undefined) return { current: false, reason: `${output} is missing` };
    oldestOutput = Math.min(oldestOutput, found.mtimeMs);
  }
  for (const input of BUILD_INPUTS) {
    const found = newestFile(join(root, input));
    if (found !== undefined && found.mtimeMs > oldestOutput) {
      return { current: false, reason: `${relative(root, found.path)} changed since the last build` };
    }
  }
  return { current: true, reason: "the build is current" };
}
