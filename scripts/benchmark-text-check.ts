/**
 * Finds benchmark text in the repository: any run of 6 or more consecutive words (lower-cased, punctuation
 * ignored) shared between a file under `src/`, `test/` or `docs/` and the benchmark texts in `../shared/data`
 * (TabFact dev and val statements and tables, FaithBench sources and summaries, HaluEval, WiCE dev claims
 * and evidence). Runs made only of numbers, single characters and month names are skipped. Runs of a
 * `test/fixtures` file whose licence is noted beside it (in the file or in a sibling `.md`) that match only
 * benchmark tables (table markdown copied on purpose) are listed apart and not counted.
 *
 *   npx tsx scripts/benchmark-text-check.ts [--data DIR]
 *
 * Exits 1 when any run is found, 2 when the data directory is absent. Not part of `npm test`: it reads
 * `../shared`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";

const RUN = 6;
const ROOT = join(dirname(new URL(import.meta.url).pathname), "..");
const dataFlag = process.argv.indexOf("--data");
const DATA = dataFlag >= 0 ? (process.argv[dataFlag + 1] ?? "") : join(ROOT, "..", "shared", "data");
const TEXT_EXTENSIONS = new Set([
  ".ts",
  ".js",
  ".json",
  ".jsonl",
  ".md",
  ".txt",
  ".csv",
  ".html",
  ".py",
  ".yaml",
]);

interface Word {
  text: string;
  start: number;
  end: number;
}

/** Words: maximal runs of letters and digits, lower-cased, with their offsets. Linear in the text. */
function words(text: string): Word[] {
  const out: Word[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const isWord = i < text.length && /[\p{L}\p{N}]/u.test(text[i] ?? "");
    if (isWord && start < 0) start = i;
    if (!isWord && start >= 0) {
      out.push({ text: text.slice(start, i).toLowerCase(), start, end: i });
      start = -1;
    }
  }
  return out;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else if (TEXT_EXTENSIONS.has(name.slice(name.lastIndexOf(".")))) out.push(path);
  }
  return out;
}

/** A fixture whose licence is noted in it or in a sibling `<stem>.md`. */
function licensed(path: string): boolean {
  const rel = relative(ROOT, path);
  if (!rel.startsWith("test/fixtures/")) return false;
  const stem = basename(path).replace(/\.[^.]+$/, "");
  const notes = [path, join(dirname(path), `${stem}.md`)].filter(existsSync);
  return notes.some((note) => /licen[cs]e|CC BY/i.test(readFileSync(note, "utf8")));
}

// The repository's 6-grams, each with where it occurs.
interface RepoFile {
  path: string;
  text: string;
  words: Word[];
  hit: Uint8Array; // 1 where the 6-gram starting at that word is benchmark text
  corpus: string[]; // which corpus matched the 6-gram starting there
}
const repoFiles: RepoFile[] = [];
const grams = new Map<string, Array<[number, number]>>();
for (const top of ["src", "test", "docs"]) {
  for (const path of listFiles(join(ROOT, top))) {
    const text = readFileSync(path, "utf8");
    const ws = words(text);
    const index = repoFiles.length;
    repoFiles.push({ path, text, words: ws, hit: new Uint8Array(ws.length), corpus: [] });
    for (let i = 0; i + RUN <= ws.length; i++) {
      const key = ws
        .slice(i, i + RUN)
        .map((w) => w.text)
        .join(" ");
      const at = grams.get(key);
      if (at === undefined) grams.set(key, [[index, i]]);
      else at.push([index, i]);
    }
  }
}

if (!existsSync(DATA)) {
  console.error(`benchmark data not found at ${DATA}: nothing checked`);
  process.exit(2);
}

const MONTHS = new Set(
  "january february march april may june july august september october november december".split(" "),
);
/** Runs made only of numbers, single characters and month names say nothing of their source. */
function trivial(ws: Word[]): boolean {
  return ws.every((w) => /^[0-9]+$/.test(w.text) || w.text.length === 1 || MONTHS.has(w.text));
}

function scan(corpus: string, text: string): void {
  const ws = words(text);
  for (let i = 0; i + RUN <= ws.length; i++) {
    if (trivial(ws.slice(i, i + RUN))) continue;
    const key = ws
      .slice(i, i + RUN)
      .map((w) => w.text)
      .join(" ");
    const at = grams.get(key);
    if (at === undefined) continue;
    for (const [file, word] of at) {
      const f = repoFiles[file];
      if (f === undefined) continue;
      f.hit[word] = 1;
      if (f.corpus[word] === undefined) f.corpus[word] = corpus;
    }
  }
}

function jsonLines(path: string): unknown[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
}

type Obj = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === "string" ? v : "");

for (const split of ["tabfact-dev", "tabfact-val"]) {
  const dir = join(DATA, split);
  for (const c of jsonLines(join(dir, "cases.jsonl")) as Obj[]) {
    for (const claim of (c.claims ?? []) as Obj[]) scan(`${split} statement`, str(claim.claim));
    for (const source of (c.sources ?? []) as Obj[]) scan(`${split} table`, str(source.text));
  }
  for (const m of jsonLines(join(dir, "cases.meta.jsonl")) as Obj[]) {
    scan(`${split} statement`, str(m.pair_statement));
  }
}
const faith = join(DATA, "raw", "faithbench", "data_for_release");
for (const name of readdirSync(faith).filter((n) => n.endsWith(".json"))) {
  const batch = JSON.parse(readFileSync(join(faith, name), "utf8")) as Obj;
  for (const s of (batch.samples ?? []) as Obj[]) {
    scan("faithbench source", str(s.source));
    scan("faithbench summary", str(s.summary));
  }
}
for (const h of jsonLines(join(DATA, "raw", "halueval", "qa_one-turn_data.json")) as Obj[]) {
  for (const field of ["knowledge", "question", "right_answer", "hallucinated_answer"]) {
    scan("halueval", str(h[field]));
  }
}
for (const w of jsonLines(join(DATA, "raw", "wice", "claim-dev.jsonl")) as Obj[]) {
  scan("wice claim", str(w.claim));
  for (const e of (w.evidence ?? []) as unknown[]) scan("wice evidence", str(e));
}

// Merge overlapping 6-grams into maximal runs and report them.
let counted = 0;
const perFile: string[] = [];
const allowed: string[] = [];
for (const f of repoFiles) {
  const isLicensed = licensed(f.path);
  let runs = 0;
  const lines: string[] = [];
  for (let i = 0; i < f.words.length; i++) {
    if (f.hit[i] !== 1) continue;
    let j = i;
    const corpora = new Set<string>();
    while (j < f.words.length && f.hit[j] === 1) {
      corpora.add(f.corpus[j] ?? "");
      j++;
    }
    const first = f.words[i];
    const last = f.words[j - 1 + RUN - 1];
    if (first === undefined || last === undefined) break;
    const span = f.text.slice(first.start, last.end);
    const line = f.text.slice(0, first.start).split("\n").length;
    const shown = span.replace(/\s+/g, " ").slice(0, 160);
    const entry = `  ${relative(ROOT, f.path)}:${line} [${[...corpora].join(", ")}] ${shown}`;
    // A licensed fixture may carry its table: runs matched only against benchmark tables are listed.
    if (isLicensed && [...corpora].every((c) => c.endsWith(" table"))) allowed.push(entry);
    else {
      lines.push(entry);
      runs++;
    }
    i = j - 1;
  }
  if (runs > 0) {
    perFile.push(`${relative(ROOT, f.path)}: ${runs}`);
    console.log(lines.join("\n"));
    counted += runs;
  }
}
console.log(`\nruns of ${RUN}+ words shared with benchmark text: ${counted}`);
for (const line of perFile) console.log(`  ${line}`);
console.log(`\ntable markdown in licensed fixtures (listed, not counted): ${allowed.length}`);
for (const line of allowed) console.log(line);
process.exit(counted > 0 ? 1 : 0);
