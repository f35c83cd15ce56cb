// What `npm run bench:data` does, with every edge injected (the data folders, the download, the build): for
// each dataset, use a local copy whose sums match, else one downloaded earlier into the cache, else download
// it from its public home at the pinned commit; verify every SHA-256; then rebuild the benchmark cases with
// the project's scripts and check that they come out byte for byte as the ones the figures were measured on.
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import pLimit from "p-limit";
import { REMEMBERED_DATA_DIR } from "./locations.js";
import type { BuildStep, DataFile, Dataset, Manifest } from "./manifest.js";

/** Where GitHub serves a file of a repository at a commit. */
export const GITHUB_RAW = "https://raw.githubusercontent.com";

/** Downloads at once per dataset (the tables of WikiTableQuestions are 421 small files). */
const DOWNLOADS_AT_ONCE = 8;

export interface PrepareOptions {
  manifest: Manifest;
  /** The local copy checked first (../shared/data, or --data-dir / VERIFIED_BENCH_DATA). */
  dataDir: string;
  /** Where downloads and rebuilt cases go (.bench-data, ignored by git). */
  cacheDir: string;
  /** Never download: use the local copy or the cache only. */
  offline: boolean;
  /** Dataset and build names to prepare; empty for all. */
  only: string[];
  /** Base of the download URLs (GITHUB_RAW; a test serves its own). */
  downloadBase: string;
  /** Returns the body of a 2xx response; throws on a network failure, a timeout or another status. */
  download: (url: string) => Promise<Uint8Array>;
  /** Runs a build step's script: reads `dataDir`/raw, writes its outputs into `outDir`. */
  runBuild: (step: BuildStep, dataDir: string, outDir: string) => Promise<void>;
  /** One line of progress. */
  log: (line: string) => void;
}

/** One line of the summary: a dataset or a build, where its files came from, and whether they all verified. */
export interface SummaryRow {
  name: string;
  licence: string;
  source: string;
  verified: string;
  ok: boolean;
}

type Mismatch = { path: string; expected: string; actual: string };

/** The SHA-256 of bytes, in hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The bytes of a regular file (a link to one is followed), or undefined when there is none at `path`.
 * Opened without blocking, then checked: a FIFO, socket or device is never read (reading a FIFO with no
 * writer would wait forever), and throws `NotRegularFile`.
 */
export function readRegularFile(path: string): Buffer | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    if (!fstatSync(descriptor).isFile()) throw new NotRegularFile(path);
    return readFileSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** A data path that names a FIFO, a socket, a device or a folder, where a regular file belongs. */
export class NotRegularFile extends Error {
  constructor(readonly path: string) {
    super(`${path} is not a regular file`);
  }
}

/**
 * Writes `bytes` to `root`/`relativePath` without following a link: every folder below `root` is made or
 * checked to be a real folder (a link there is refused), and the file is written to a new temporary name
 * and renamed over the target, so a link (or FIFO) planted at the target is replaced, never written through.
 */
export function writeFileNoFollow(root: string, relativePath: string, bytes: Uint8Array): void {
  const target = join(root, relativePath);
  const parts = relative(root, dirname(target))
    .split(sep)
    .filter((part) => part !== "");
  let folder = root;
  mkdirSync(root, { recursive: true });
  for (const part of parts) {
    folder = join(folder, part);
    const found = lstatOrUndefined(folder);
    if (found === undefined) mkdirSync(folder);
    else if (!found.isDirectory()) {
      throw new Error(
        `refused to write ${target}: ${folder} is ${found.isSymbolicLink() ? "a link" : "not a folder"}`,
      );
    }
  }
  const temporary = `${target}.${randomBytes(6).toString("hex")}.partial`;
  writeFileSync(temporary, bytes, { flag: "wx" });
  try {
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Removes whatever is at `path` unless it is a regular file or a folder (a link, FIFO, socket or device). */
export function removeIfSpecial(path: string): void {
  const found = lstatOrUndefined(path);
  if (found !== undefined && !found.isFile() && !found.isDirectory()) unlinkSync(path);
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The SHA-256 of the regular file at `path`, or undefined when there is none (or something else is there). */
function sumOfFile(path: string): string | undefined {
  try {
    const bytes = readRegularFile(path);
    return bytes === undefined ? undefined : sha256(bytes);
  } catch (error) {
    if (error instanceof NotRegularFile) return undefined;
    throw error;
  }
}

/** The files of `files` under `root` that are missing, and those whose sum differs. */
function checkFiles(root: string, files: DataFile[]): { missing: string[]; mismatched: Mismatch[] } {
  const missing: string[] = [];
  const mismatched: Mismatch[] = [];
  for (const file of files) {
    const path = join(root, file.path);
    let bytes: Buffer | undefined;
    try {
      bytes = readRegularFile(path);
    } catch (error) {
      if (!(error instanceof NotRegularFile)) throw error;
      mismatched.push({ path: file.path, expected: file.sha256, actual: "not a regular file" });
      continue;
    }
    if (bytes === undefined) {
      missing.push(file.path);
      continue;
    }
    const actual = sha256(bytes);
    if (actual !== file.sha256) mismatched.push({ path: file.path, expected: file.sha256, actual });
  }
  return { missing, mismatched };
}

function describeMismatch(where: string, mismatch: Mismatch): string {
  return `${mismatch.path} in ${where}: SHA-256 expected ${mismatch.expected}, actual ${mismatch.actual}`;
}

/** Why a folder does not hold a verified copy, in one line ("" when it does). */
function folderProblem(where: string, check: ReturnType<typeof checkFiles>, total: number): string {
  const [first] = check.mismatched;
  if (first !== undefined) {
    const more = check.mismatched.length > 1 ? ` (and ${check.mismatched.length - 1} more files differ)` : "";
    return describeMismatch(where, first) + more;
  }
  if (check.missing.length === total) return `not in ${where}`;
  if (check.missing.length > 0) {
    return `${check.missing.length} of ${total} files missing in ${where} (first: ${check.missing[0]})`;
  }
  return "";
}

/** The URL a file of a dataset is downloaded from. */
export function downloadUrl(base: string, dataset: Dataset, file: DataFile): string | undefined {
  if (dataset.download === undefined || file.from === undefined) return undefined;
  return `${base}/${dataset.download.repo}/${file.commit ?? dataset.download.commit}/${file.from}`;
}

/** A download that gives up after `timeoutMs`, with the network's own reason in its message. */
export function downloadWithTimeout(timeoutMs: number): (url: string) => Promise<Uint8Array> {
  return async (url) => {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message;
      throw new Error(`${(error as Error).message}${reason === undefined ? "" : `: ${reason}`}`);
    }
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}

type Located = { root: string; row: SummaryRow };

/** Downloads the files of a dataset the cache lacks or holds wrongly; verifies each before writing it. */
async function downloadDataset(
  dataset: Dataset,
  options: PrepareOptions,
): Promise<{ short: string; detail: string } | undefined> {
  const limit = pLimit(DOWNLOADS_AT_ONCE);
  let failure: { short: string; detail: string } | undefined;
  await Promise.all(
    dataset.files.map((file) =>
      limit(async () => {
        if (failure !== undefined) return;
        if (sumOfFile(join(options.cacheDir, file.path)) === file.sha256) return;
        const url = downloadUrl(options.downloadBase, dataset, file);
        if (url === undefined) {
          failure ??= {
            short: "no public download",
            detail: `${file.path} has no public home to download it from`,
          };
          return;
        }
        let bytes: Uint8Array;
        try {
          bytes = await options.download(url);
        } catch (error) {
          failure ??= {
            short: "download failed",
            detail: `could not download ${url} (${(error as Error).message})`,
          };
          return;
        }
        const actual = sha256(bytes);
        if (actual !== file.sha256) {
          failure ??= {
            short: `${file.path} SHA-256 differs`,
            detail: `${file.path} downloaded from ${url}: SHA-256 expected ${file.sha256}, actual ${actual}; refused, not written`,
          };
          return;
        }
        try {
          writeFileNoFollow(options.cacheDir, file.path, bytes);
        } catch (error) {
          failure ??= { short: "not written", detail: (error as Error).message };
        }
      }),
    ),
  );
  return failure;
}

/** Finds or fetches one dataset; the row says where its files came from, or why none verified. */
async function locateDataset(dataset: Dataset, options: PrepareOptions): Promise<Located> {
  const total = dataset.files.length;
  const local = checkFiles(options.dataDir, dataset.files);
  const row = (source: string, ok: boolean): SummaryRow => ({
    name: dataset.name,
    licence: dataset.licence,
    source,
    verified: `${ok ? total : total - local.missing.length - local.mismatched.length}/${total}`,
    ok,
  });
  const localProblem = folderProblem(options.dataDir, local, total);
  const localShort =
    local.mismatched[0] === undefined
      ? `not in ${options.dataDir}`
      : `${local.mismatched[0].path} SHA-256 differs in ${options.dataDir}`;
  if (localProblem === "") {
    options.log(
      `${dataset.name}: local copy in ${options.dataDir} verified (${total} files); nothing downloaded.`,
    );
    return { root: options.dataDir, row: row(`local copy ${options.dataDir} (no download)`, true) };
  }
  const cached = checkFiles(options.cacheDir, dataset.files);
  if (folderProblem(options.cacheDir, cached, total) === "") {
    options.log(
      `${dataset.name}: ${localProblem}; the copy downloaded earlier into ${options.cacheDir} verified.`,
    );
    return { root: options.cacheDir, row: row(`cache ${options.cacheDir} (downloaded earlier)`, true) };
  }
  if (dataset.download === undefined) {
    options.log(
      `${dataset.name}: ${localProblem}, and no public home holds these files. ${dataset.note ?? ""}`,
    );
    return { root: "", row: row(`none: ${localShort}; no public download`, false) };
  }
  const from = `github.com/${dataset.download.repo}@${dataset.download.commit.slice(0, 7)}`;
  if (options.offline) {
    options.log(`${dataset.name}: ${localProblem}; --offline, so not downloaded from ${from}.`);
    return { root: "", row: row(`none: ${localShort}; offline`, false) };
  }
  options.log(`${dataset.name}: ${localProblem}; downloading ${total} files from ${from} …`);
  const failure = await downloadDataset(dataset, options);
  if (failure !== undefined) {
    options.log(
      `${dataset.name}: ${failure.detail}. No verified copy of ${dataset.name}: put its files in ` +
        `${options.dataDir} (see docs/accuracy.md), or run again where GitHub can be reached.`,
    );
    return { root: "", row: row(`none: ${failure.short}`, false) };
  }
  options.log(`${dataset.name}: downloaded into ${options.cacheDir} and verified (${total} files).`);
  return { root: options.cacheDir, row: row(`downloaded from ${from}`, true) };
}

/** Runs one build from the verified inputs and checks its outputs against the recorded sums. */
async function rebuild(
  step: BuildStep,
  inputs: Map<string, { dataset: Dataset; root: string }>,
  options: PrepareOptions,
): Promise<SummaryRow> {
  const total = step.outputs.length;
  const row = (source: string, ok: boolean): SummaryRow => ({
    name: step.name,
    licence: step.licence,
    source,
    verified: ok ? `${total}/${total}` : `0/${total}`,
    ok,
  });
  const absent = step.inputs.filter((name) => (inputs.get(name)?.root ?? "") === "");
  if (absent.length > 0) {
    options.log(`${step.name}: not rebuilt: it needs ${absent.join(", ")}.`);
    return row(`not rebuilt: needs ${absent.join(", ")}`, false);
  }
  const roots = new Set(step.inputs.map((name) => inputs.get(name)?.root));
  let rawRoot = [...roots][0] as string;
  if (roots.size > 1) {
    // The script reads one raw/ folder: gather the inputs in the cache. Never done for non-commercial data.
    for (const name of step.inputs) {
      const input = inputs.get(name);
      if (input === undefined || input.root === options.cacheDir) continue;
      if (input.dataset.nonCommercial) throw new Error(`${step.name} must not copy non-commercial ${name}`);
      for (const file of input.dataset.files) {
        const bytes = readRegularFile(join(input.root, file.path));
        if (bytes === undefined) throw new Error(`${join(input.root, file.path)} went missing`);
        writeFileNoFollow(options.cacheDir, file.path, bytes);
      }
    }
    rawRoot = options.cacheDir;
  }
  mkdirSync(options.cacheDir, { recursive: true });
  // The script writes its outputs by name: a link or FIFO planted there is removed first, not written through.
  for (const output of step.outputs) removeIfSpecial(join(options.cacheDir, output.path));
  try {
    await options.runBuild(step, rawRoot, options.cacheDir);
  } catch (error) {
    options.log(`${step.name}: ${step.script} failed: ${(error as Error).message}`);
    return row(`not rebuilt: ${step.script} failed`, false);
  }
  const problem = folderProblem(options.cacheDir, checkFiles(options.cacheDir, step.outputs), total);
  if (problem !== "") {
    options.log(
      `${step.name}: rebuilt, but ${problem}. Refused: the benchmarks would not read the measured cases.`,
    );
    return row(`rebuilt, refused: ${problem}`, false);
  }
  options.log(
    `${step.name}: rebuilt into ${options.cacheDir} by ${step.script}; identical to the measured cases.`,
  );
  return row(`rebuilt by ${step.script} from ${rawRoot}`, true);
}

/**
 * After a run with `--data-dir`: records the folder in `cacheDir`/data-dir.txt when some dataset verified
 * there, so the benchmarks read it without $VERIFIED_BENCH_DATA. Returns whether it recorded it.
 */
export function recordDataDir(cacheDir: string, dataDir: string, rows: readonly SummaryRow[]): boolean {
  if (!rows.some((row) => row.ok && row.source.startsWith("local copy"))) return false;
  writeFileNoFollow(cacheDir, REMEMBERED_DATA_DIR, new TextEncoder().encode(`${resolve(dataDir)}\n`));
  return true;
}

/** Prepares the benchmark data; `ok` is false when any dataset or build did not verify. */
export async function prepareBenchData(
  options: PrepareOptions,
): Promise<{ rows: SummaryRow[]; ok: boolean }> {
  const wanted = (name: string) => options.only.length === 0 || options.only.includes(name);
  const unknown = options.only.filter(
    (name) =>
      !options.manifest.datasets.some((dataset) => dataset.name === name) &&
      !options.manifest.builds.some((step) => step.name === name),
  );
  if (unknown.length > 0) {
    const known = [...options.manifest.datasets, ...options.manifest.builds].map((each) => each.name);
    throw new Error(`unknown dataset ${unknown.join(", ")}; known: ${known.join(", ")}`);
  }
  const builds = options.manifest.builds.filter((step) => wanted(step.name));
  const needed = new Set(builds.flatMap((step) => step.inputs));
  const located = new Map<string, { dataset: Dataset; root: string }>();
  const rows: SummaryRow[] = [];
  for (const dataset of options.manifest.datasets) {
    if (!wanted(dataset.name) && !needed.has(dataset.name)) continue;
    const found = await locateDataset(dataset, options);
    located.set(dataset.name, { dataset, root: found.root });
    rows.push(found.row);
  }
  for (const step of builds) rows.push(await rebuild(step, located, options));
  return { rows, ok: rows.every((row) => row.ok) };
}

/** The summary as an aligned text table (dataset, licence, source used, files verified). */
export function formatSummary(rows: SummaryRow[]): string {
  const header = ["dataset", "licence", "source used", "files verified"];
  const cells = [header, ...rows.map((row) => [row.name, row.licence, row.source, row.verified])];
  const widths = header.map((_, column) => Math.max(...cells.map((line) => (line[column] ?? "").length)));
  const render = (line: string[]) =>
    line
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [
    render(header),
    render(widths.map((width) => "-".repeat(width))),
    ...cells.slice(1).map(render),
  ].join("\n");
}
