import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findBenchData } from "./locations.js";
import { BENCH_DATA, type BuildStep, type Manifest } from "./manifest.js";
import {
  downloadWithTimeout,
  type PrepareOptions,
  prepareBenchData,
  recordDataDir,
  sha256,
} from "./prepare.js";

// A tiny fixture in a temp folder (never ../shared): two files of one dataset, and a build that joins them.
const FILES = { "raw/alpha/a.txt": "first file\n", "raw/alpha/b.txt": "second file\n" };
const BUILT = "first file\nsecond file\n";
const sumOf = (text: string) => sha256(new TextEncoder().encode(text));

const MANIFEST: Manifest = {
  datasets: [
    {
      name: "alpha",
      licence: "CC BY 4.0",
      nonCommercial: false,
      home: "https://example.org/alpha",
      download: { repo: "owner/alpha", commit: "c0ffee" },
      readBy: ["some-bench"],
      files: Object.entries(FILES).map(([path, text]) => ({
        path,
        from: `data/${path.slice("raw/alpha/".length)}`,
        sha256: sumOf(text),
      })),
    },
  ],
  builds: [
    {
      name: "cases.jsonl",
      script: "scripts/bench-data/build_cases.py",
      inputs: ["alpha"],
      licence: "CC BY 4.0",
      outputs: [{ path: "cases.jsonl", sha256: sumOf(BUILT) }],
      readBy: ["some-bench"],
    },
  ],
};

function folder(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), "verified-bench-data-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The build step the fixture's manifest names, done in process: concatenates the raw files. */
async function joinRawFiles(_step: BuildStep, dataDir: string, outDir: string): Promise<void> {
  const text = Object.keys(FILES)
    .map((path) => readFileSync(join(dataDir, path), "utf8"))
    .join("");
  writeFileSync(join(outDir, "cases.jsonl"), text);
}

function options(
  overrides: Partial<PrepareOptions>,
): PrepareOptions & { lines: string[]; downloads: string[] } {
  const lines: string[] = [];
  const downloads: string[] = [];
  return {
    manifest: MANIFEST,
    dataDir: folder(),
    cacheDir: folder(),
    offline: false,
    only: [],
    downloadBase: "http://127.0.0.1:9",
    download: async (url) => {
      downloads.push(url);
      throw new Error("fetch failed: ENETUNREACH");
    },
    runBuild: joinRawFiles,
    log: (line) => lines.push(line),
    ...overrides,
    lines,
    downloads,
  };
}

describe("npm run bench:data", () => {
  it("uses a local copy whose sums match, says so, and never downloads", async () => {
    const run = options({ dataDir: folder(FILES) });
    const result = await prepareBenchData(run);
    expect(run.downloads).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.rows).toEqual([
      {
        name: "alpha",
        licence: "CC BY 4.0",
        source: `local copy ${run.dataDir} (no download)`,
        verified: "2/2",
        ok: true,
      },
      {
        name: "cases.jsonl",
        licence: "CC BY 4.0",
        source: `rebuilt by scripts/bench-data/build_cases.py from ${run.dataDir}`,
        verified: "1/1",
        ok: true,
      },
    ]);
    expect(run.lines).toContain(
      `alpha: local copy in ${run.dataDir} verified (2 files); nothing downloaded.`,
    );
    expect(readFileSync(join(run.cacheDir, "cases.jsonl"), "utf8")).toBe(BUILT);
    // The dataset itself is read where it lies: nothing of it is copied into the cache.
    expect(existsSync(join(run.cacheDir, "raw"))).toBe(false);
  });

  it("refuses a local file whose sum differs, naming the file, the expected and the actual sum", async () => {
    const run = options({
      dataDir: folder({ ...FILES, "raw/alpha/b.txt": "second file, edited\n" }),
      offline: true,
    });
    const result = await prepareBenchData(run);
    expect(result.ok).toBe(false);
    expect(result.rows[0]).toMatchObject({
      name: "alpha",
      source: `none: raw/alpha/b.txt SHA-256 differs in ${run.dataDir}; offline`,
      verified: "1/2",
      ok: false,
    });
    const expected = sumOf(FILES["raw/alpha/b.txt"]);
    const actual = sumOf("second file, edited\n");
    expect(run.lines.join("\n")).toContain(
      `raw/alpha/b.txt in ${run.dataDir}: SHA-256 expected ${expected}, actual ${actual}`,
    );
    expect(result.rows[1]).toMatchObject({
      name: "cases.jsonl",
      source: "not rebuilt: needs alpha",
      ok: false,
    });
    expect(run.downloads).toEqual([]);
  });

  it("says which dataset and URL could not be reached when the data is missing and there is no network", async () => {
    const run = options({});
    const result = await prepareBenchData(run);
    expect(result.ok).toBe(false);
    expect(run.downloads.length).toBeGreaterThan(0);
    expect(run.lines.join("\n")).toContain(
      "alpha: could not download http://127.0.0.1:9/owner/alpha/c0ffee/data/a.txt (fetch failed: ENETUNREACH). " +
        `No verified copy of alpha: put its files in ${run.dataDir} (see docs/accuracy.md), or run again where ` +
        "GitHub can be reached.",
    );
    expect(result.rows[0]).toMatchObject({ name: "alpha", source: "none: download failed", ok: false });
  });

  it("refuses a build whose output differs from the measured cases, naming the file", async () => {
    const run = options({
      dataDir: folder(FILES),
      runBuild: async (_step, _dataDir, outDir) => writeFileSync(join(outDir, "cases.jsonl"), "other\n"),
    });
    const result = await prepareBenchData(run);
    expect(result.ok).toBe(false);
    expect(result.rows[1]?.source).toBe(
      `rebuilt, refused: cases.jsonl in ${run.cacheDir}: SHA-256 expected ${sumOf(BUILT)}, actual ${sumOf("other\n")}`,
    );
  });
});

describe("npm run bench:data, downloading from a server on 127.0.0.1", () => {
  const served = new Map<string, string>();
  const server = createServer((request, response) => {
    const body = served.get(request.url ?? "");
    response.writeHead(body === undefined ? 404 : 200).end(body);
  });
  let base = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("downloads the files at the pinned commit into the cache, verifies them and builds from there", async () => {
    served.clear();
    served.set("/owner/alpha/c0ffee/data/a.txt", FILES["raw/alpha/a.txt"]);
    served.set("/owner/alpha/c0ffee/data/b.txt", FILES["raw/alpha/b.txt"]);
    const run = options({ downloadBase: base, download: downloadWithTimeout(5_000) });
    const result = await prepareBenchData(run);
    expect(result.rows.map((row) => [row.name, row.source, row.verified])).toEqual([
      ["alpha", "downloaded from github.com/owner/alpha@c0ffee", "2/2"],
      ["cases.jsonl", `rebuilt by scripts/bench-data/build_cases.py from ${run.cacheDir}`, "1/1"],
    ]);
    expect(readFileSync(join(run.cacheDir, "raw/alpha/b.txt"), "utf8")).toBe(FILES["raw/alpha/b.txt"]);
  });

  it("refuses a downloaded file whose sum differs and does not write it", async () => {
    served.clear();
    served.set("/owner/alpha/c0ffee/data/a.txt", FILES["raw/alpha/a.txt"]);
    served.set("/owner/alpha/c0ffee/data/b.txt", "tampered\n");
    const run = options({ downloadBase: base, download: downloadWithTimeout(5_000) });
    const result = await prepareBenchData(run);
    expect(result.ok).toBe(false);
    expect(result.rows[0]).toMatchObject({ source: "none: raw/alpha/b.txt SHA-256 differs", ok: false });
    expect(run.lines.join("\n")).toContain(
      `raw/alpha/b.txt downloaded from ${base}/owner/alpha/c0ffee/data/b.txt: SHA-256 expected ` +
        `${sumOf(FILES["raw/alpha/b.txt"])}, actual ${sumOf("tampered\n")}; refused, not written`,
    );
    expect(existsSync(join(run.cacheDir, "raw/alpha/b.txt"))).toBe(false);
  });
});

describe("npm run bench:data, with links and special files planted", () => {
  const served = async (url: string) => {
    const path = `raw/alpha/${url.slice(url.lastIndexOf("/") + 1)}`;
    return new TextEncoder().encode(FILES[path as keyof typeof FILES]);
  };

  it("replaces a link planted at a cached file, never writing through it to its target", async () => {
    const outside = folder({ "victim.txt": "precious\n", "built-victim.txt": "precious too\n" });
    const run = options({ download: served });
    mkdirSync(join(run.cacheDir, "raw/alpha"), { recursive: true });
    symlinkSync(join(outside, "victim.txt"), join(run.cacheDir, "raw/alpha/a.txt"));
    symlinkSync(join(outside, "built-victim.txt"), join(run.cacheDir, "cases.jsonl"));

    const result = await prepareBenchData(run);

    expect(result.ok).toBe(true);
    expect(readFileSync(join(outside, "victim.txt"), "utf8")).toBe("precious\n");
    expect(readFileSync(join(outside, "built-victim.txt"), "utf8")).toBe("precious too\n");
    expect(lstatSync(join(run.cacheDir, "raw/alpha/a.txt")).isFile()).toBe(true);
    expect(readFileSync(join(run.cacheDir, "raw/alpha/a.txt"), "utf8")).toBe(FILES["raw/alpha/a.txt"]);
    expect(lstatSync(join(run.cacheDir, "cases.jsonl")).isFile()).toBe(true);
  });

  it("refuses to write under a folder of the cache that is a link, and says so", async () => {
    const outside = folder();
    const run = options({ download: served });
    symlinkSync(outside, join(run.cacheDir, "raw"));

    const result = await prepareBenchData(run);

    expect(result.rows[0]).toMatchObject({ source: "none: not written", ok: false });
    expect(run.lines.join("\n")).toContain(`${join(run.cacheDir, "raw")} is a link`);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("reads no FIFO: a FIFO in the local copy or the cache is not a verified file, and nothing waits on it", async () => {
    const run = options({ download: served });
    mkdirSync(join(run.dataDir, "raw/alpha"), { recursive: true });
    mkdirSync(join(run.cacheDir, "raw/alpha"), { recursive: true });
    for (const root of [run.dataDir, run.cacheDir]) {
      expect(spawnSync("mkfifo", [join(root, "raw/alpha/a.txt")]).status).toBe(0);
    }
    writeFileSync(join(run.dataDir, "raw/alpha/b.txt"), FILES["raw/alpha/b.txt"]);

    const result = await prepareBenchData(run);

    // The local copy is refused (its a.txt is not a regular file), the download replaces the cache's FIFO.
    expect(run.lines[0]).toContain(`raw/alpha/a.txt in ${run.dataDir}: SHA-256 expected`);
    expect(run.lines[0]).toContain("actual not a regular file");
    expect(result.rows[0]).toMatchObject({ ok: true });
    expect(lstatSync(join(run.cacheDir, "raw/alpha/a.txt")).isFile()).toBe(true);
  });
});

describe("the bench data manifest", () => {
  const datasets = BENCH_DATA.datasets;

  it("names a licence, and a download at a full commit or a note saying why there is none, for each dataset", () => {
    for (const dataset of datasets) {
      // Words, not blanks: an empty or blank licence, note or path would pass a "defined" check.
      expect(dataset.licence, dataset.name).toMatch(/^\S(.*\S)?$/);
      if (dataset.download === undefined) expect(dataset.note, dataset.name).toMatch(/\S{3}/);
      else {
        expect(dataset.download.commit, dataset.name).toMatch(/^[0-9a-f]{40}$/);
        expect(dataset.download.repo, dataset.name).toMatch(/^[\w.-]+\/[\w.-]+$/);
      }
      for (const file of dataset.files) {
        expect(file.sha256, file.path).toMatch(/^[0-9a-f]{64}$/);
        expect(file.path, dataset.name).toMatch(/^[^\s/]\S*[^\s/]$/);
        if (dataset.download !== undefined) expect(file.from, file.path).toMatch(/^[^\s/]\S*[^\s/]$/);
      }
    }
  });

  it("never gathers non-commercial data for a build (the only step that copies a dataset)", () => {
    const nonCommercial = datasets.filter((dataset) => dataset.nonCommercial).map((dataset) => dataset.name);
    expect(nonCommercial).toEqual(["faithbench"]);
    for (const step of BENCH_DATA.builds) {
      for (const input of step.inputs) expect(nonCommercial, step.name).not.toContain(input);
    }
  });

  it("names only benchmarks that exist (bench/NAME.bench.ts) as the readers of a dataset or a build", () => {
    const readers = [...datasets, ...BENCH_DATA.builds].flatMap((entry) => entry.readBy);
    for (const name of new Set(readers)) {
      expect(existsSync(fileURLToPath(new URL(`../../bench/${name}.bench.ts`, import.meta.url))), name).toBe(
        true,
      );
    }
  });

  it("downloads HaluEval's QA sample (MIT) from its pinned commit into raw/halueval, where the bench reads it", () => {
    const haluEval = datasets.find((dataset) => dataset.name === "halueval");
    expect(haluEval).toMatchObject({
      licence: "MIT",
      nonCommercial: false,
      download: { repo: "RUCAIBox/HaluEval", commit: "b7253db3cdaa0ab2c382f92b26b390109174f77e" },
      readBy: ["halueval"],
    });
    expect(haluEval?.files.map((file) => [file.from, file.path])).toEqual([
      ["generation/qa/qa_one-turn_data.json", "raw/halueval/qa_one-turn_data.json"],
      ["README.md", "raw/halueval/README.md"],
      ["LICENSE", "raw/halueval/LICENSE"],
    ]);
    const bench = readFileSync(
      fileURLToPath(new URL("../../bench/halueval.bench.ts", import.meta.url)),
      "utf8",
    );
    expect(bench).toContain('"raw/halueval/qa_one-turn_data.json"');
  });

  it("lists each file once, and a build's inputs among the datasets", () => {
    const paths = datasets.flatMap((dataset) => dataset.files.map((file) => file.path));
    expect(new Set(paths).size).toBe(paths.length);
    const names = datasets.map((dataset) => dataset.name);
    for (const step of BENCH_DATA.builds) expect(names).toEqual(expect.arrayContaining(step.inputs));
  });
});

describe("npm run bench:data, the command", () => {
  it("exits non-zero, naming each dataset it could not get, when the data is missing and it may not download", () => {
    const empty = folder();
    const main = fileURLToPath(new URL("./main.ts", import.meta.url));
    const tsx = fileURLToPath(new URL("../../node_modules/.bin/tsx", import.meta.url));
    const run = spawnSync(tsx, [main, "--data-dir", empty, "--cache-dir", folder(), "--offline", "xquad"], {
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    // The folder is shown as short as it can be said from where the command runs (relative or absolute).
    const line = run.stdout.split("\n").find((each) => each.startsWith("xquad: not in "));
    expect(line).toMatch(
      /^xquad: not in \S+; --offline, so not downloaded from github\.com\/google-deepmind\/xquad@7d30520\.$/,
    );
    expect(resolve(line?.slice("xquad: not in ".length).split(";")[0] ?? "")).toBe(empty);
    expect(run.stderr).toContain("Some data did not verify");
  });

  it("records the --data-dir a dataset verified in, so a benchmark reads it with no variable set", async () => {
    const run = options({ dataDir: folder(FILES) });
    const result = await prepareBenchData(run);
    expect(recordDataDir(run.cacheDir, run.dataDir, result.rows)).toBe(true);
    expect(findBenchData("raw/alpha/a.txt", {}, run.cacheDir)).toBe(join(run.dataDir, "raw/alpha/a.txt"));
    // A folder where nothing verified is not recorded.
    const nothing = options({});
    const none = await prepareBenchData({ ...nothing, offline: true });
    expect(recordDataDir(nothing.cacheDir, nothing.dataDir, none.rows)).toBe(false);
    expect(existsSync(join(nothing.cacheDir, "data-dir.txt"))).toBe(false);
  });

  it("lets a benchmark read a file from $VERIFIED_BENCH_DATA when the cache does not hold it", () => {
    const dataDir = folder({ "probe-only-here/spans.jsonl": "{}\n" });
    expect(findBenchData("probe-only-here/spans.jsonl", { VERIFIED_BENCH_DATA: dataDir })).toBe(
      join(dataDir, "probe-only-here/spans.jsonl"),
    );
    expect(findBenchData("probe-only-here/absent.jsonl", { VERIFIED_BENCH_DATA: dataDir })).toBeUndefined();
  });
});
