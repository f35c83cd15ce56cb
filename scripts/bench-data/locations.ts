// Where the benchmark data lies: one definition for `npm run bench:data` and for the benchmarks that read it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The environment variable naming the local copy of the data, in place of ../shared/data. */
export const DATA_DIR_VARIABLE = "VERIFIED_BENCH_DATA";

/** Where `npm run bench:data` downloads datasets and writes the rebuilt cases (ignored by git). */
export const CACHE_DIR = join(REPO_ROOT, ".bench-data");

/** The local copy of the data: $VERIFIED_BENCH_DATA, else the maintainers' folder ../shared/data. */
export function localDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const named = env[DATA_DIR_VARIABLE];
  return named !== undefined && named !== "" ? named : join(REPO_ROOT, "..", "shared", "data");
}

/**
 * The path of a data file or folder (`spans.jsonl`, `raw/faithbench/data_for_release`) for a benchmark:
 * the cache that `npm run bench:data` fills first, then the local copy; undefined when neither has it.
 */
export function findBenchData(
  relativePath: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  return [CACHE_DIR, localDataDir(env)]
    .map((root) => join(root, relativePath))
    .find((path) => existsSync(path));
}

/** The line a benchmark prints when its data is in neither place. */
export function missingBenchData(relativePath: string, env: NodeJS.ProcessEnv = process.env): string {
  return (
    `skipped: ${relativePath} is in neither .bench-data nor ${localDataDir(env)}: ` +
    "run `npm run bench:data` first (docs/accuracy.md says where each dataset comes from)"
  );
}
