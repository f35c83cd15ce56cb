// `npm run bench:data [-- names…]`: gets the public datasets the accuracy benchmarks read, checks their
// SHA-256 sums and rebuilds the benchmark cases (see prepare.ts and docs/accuracy.md).
import { execFile } from "node:child_process";
import { relative, resolve, sep } from "node:path";
import { promisify } from "node:util";
import { Command, InvalidArgumentError } from "commander";
import { CACHE_DIR, DATA_DIR_VARIABLE, localDataDir, REMEMBERED_DATA_DIR, REPO_ROOT } from "./locations.js";
import { BENCH_DATA, type BuildStep } from "./manifest.js";
import {
  downloadWithTimeout,
  formatSummary,
  GITHUB_RAW,
  prepareBenchData,
  recordDataDir,
} from "./prepare.js";

const run = promisify(execFile);

/** Runs a build script with the repository's Python 3 (standard library only). */
async function runPythonBuild(step: BuildStep, dataDir: string, outDir: string): Promise<void> {
  try {
    const { stdout } = await run("python3", [step.script, dataDir, outDir], { cwd: REPO_ROOT });
    if (stdout.trim() !== "") console.log(`  ${stdout.trim()}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error("python3 is not installed (the build scripts need Python 3, standard library only)");
    }
    throw new Error(((error as { stderr?: string }).stderr ?? (error as Error).message).trim());
  }
}

/** A path as short as it can be said from where the command runs. */
function shown(path: string): string {
  const near = relative(process.cwd(), path) || ".";
  return near.startsWith(`..${sep}..`) ? path : near;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError("a positive whole number");
  return number;
}

const program = new Command("bench:data")
  .description(
    "Get the public datasets the accuracy benchmarks read, verify their SHA-256 sums and rebuild the cases.",
  )
  .argument(
    "[names...]",
    `datasets or builds to prepare (default: all): ${[...BENCH_DATA.datasets, ...BENCH_DATA.builds].map((each) => each.name).join(", ")}`,
  )
  .option(
    "--data-dir <dir>",
    `local copy to use first, recorded for the benchmarks once a dataset verifies there (default: $${DATA_DIR_VARIABLE}, else the folder recorded earlier, else ../shared/data)`,
  )
  .option("--cache-dir <dir>", "where downloads and rebuilt cases go", shown(CACHE_DIR))
  .option("--offline", "never download; use the local copy or the cache only", false)
  .option("--timeout-ms <ms>", "give up on a download after this long", positiveInteger, 15_000)
  .action(
    async (
      names: string[],
      flags: { dataDir?: string; cacheDir: string; offline: boolean; timeoutMs: number },
    ) => {
      const dataDir = shown(resolve(flags.dataDir ?? localDataDir()));
      const cacheDir = shown(resolve(flags.cacheDir));
      console.log(
        `Local copy: ${dataDir}; cache: ${cacheDir}.${flags.offline ? " Offline: nothing is downloaded." : ""}`,
      );
      const result = await prepareBenchData({
        manifest: BENCH_DATA,
        dataDir,
        cacheDir,
        offline: flags.offline,
        only: names,
        downloadBase: GITHUB_RAW,
        download: downloadWithTimeout(flags.timeoutMs),
        runBuild: runPythonBuild,
        log: (line) => console.log(line),
      });
      console.log(`\n${formatSummary(result.rows)}\n`);
      // The benchmarks look in the cache (.bench-data) first; the folder recorded there is their local copy.
      if (flags.dataDir !== undefined && recordDataDir(resolve(flags.cacheDir), flags.dataDir, result.rows)) {
        console.log(
          `Recorded ${resolve(flags.dataDir)} in ${cacheDir}/${REMEMBERED_DATA_DIR}: the benchmarks read it from now on.`,
        );
      }
      const nonCommercial = BENCH_DATA.datasets
        .filter((dataset) => dataset.nonCommercial)
        .map((each) => each.name);
      console.log(
        `${nonCommercial.join(", ")}: non-commercial licence; read where it lies, never copied into the repository.`,
      );
      if (!result.ok) {
        console.error(
          "Some data did not verify (see above); the benchmarks that need it will say so and skip.",
        );
        process.exitCode = 1;
      }
    },
  );

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(`bench:data: ${(error as Error).message}`);
  process.exitCode = 2;
});
