// Where the benchmark data lies: one definition for `npm run bench:data` and for the benchmarks that read it.
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The environment variable naming the local copy of the data, in place of ../shared/data. */
export const DATA_DIR_VARIABLE = "VERIFIED_BENCH_DATA";

/** Where `npm run bench:data` downloads datasets and writes the rebuilt cases (ignored by git). */
export const CACHE_DIR = join(REPO_ROOT, ".bench-data");

/**
 * Where `npm run bench:data --data-dir DIR` records DIR once a dataset verified there, so that the benchmarks
 * (and later runs) read that copy without $VERIFIED_BENCH_DATA: one line, the folder's absolute path.
 */
export const REMEMBERED_DATA_DIR = "data-dir.txt";

/** The folder recorded in `cacheDir`/data-dir.txt, or undefined (none, empty, or not a regular file). */
export function rememberedDataDir(cacheDir: string = CACHE_DIR): string | undefined {
  const path = join(cacheDir, REMEMBERED_DATA_DIR);
  try {
    if (!lstatSync(path).isFile()) return undefined;
    const folder = readFileSync(path, "utf8").trim();
    return folder === "" ? undefined : folder;
  } catch {
    return undefined;
  }
}

/**
 * The local copy of the data: $VERIFIED_BENCH_DATA, else the folder an earlier `bench:data --data-dir`
 * recorded (`rememberedDataDir`), else the maintainers' folder ../shared/data.
 */
export function localDataDir(env: NodeJS.ProcessEnv = process.env, cacheDir: string = CACHE_DIR): string {
  const named = env[DATA_DIR_VARIABLE];
  if (named !== undefined && named !== "") return named;
  return rememberedDataDir(cacheDir) ?? join(REPO_ROOT, "..", "shared", "data");
}

/**
 * The path of a data file or folder (`spans.jsonl`, `raw/faithbench/data_for_release`) for a benchmark:
 * the cache that `npm run bench:data` fills first, then the local copy; undefined when neither has it.
 */
export function findBenchData(
  relativePath: string,
  env: NodeJS.ProcessEnv = process.env,
  cacheDir: string = CACHE_DIR,
): string | undefined {
  return [cacheDir, localDataDir(env, cacheDir)]
    .map((root) => join(root, relativePath))
    .find((path) => existsSync(path));
}

/** The line a benchmark prints when its data is in neither place. */
export function missingBenchData(
  relativePath: string,
  env: NodeJS.ProcessEnv = process.env,
  cacheDir: string = CACHE_DIR,
): string {
  return (
    `skipped: ${relativePath} is in neither .bench-data nor ${localDataDir(env, cacheDir)}: ` +
    `run \`npm run bench:data\` first (with --data-dir DIR it records DIR for the benchmarks; or set ` +
    `${DATA_DIR_VARIABLE}=DIR; docs/accuracy.md says where each dataset comes from)`
  );
}
