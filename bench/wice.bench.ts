// Answer mode on WiCE's dev split (../shared/data/raw/wice/claim-dev.jsonl: Wikipedia sentences and the web
// pages they cite, labelled by people; annotations ODC-BY, text CC BY-SA and Common Crawl's terms, so the data
// stays outside the repository and this bench reads it from there). Each claim is checked as an app would send
// it: the page's sentences joined by "\n" as the one source, the claim followed by `[1]` as the answer. A
// supported claim should be kept, and its span should lie in a gold supporting sentence; a not-supported
// claim should be flagged; a partially supported one flagged, or kept with one of the words annotators marked
// unsupported named (non-supported-tokens-dev.jsonl, which covers the sub-claims of about half of them).
// The test split is kept aside: tune and read misses on dev only. VERBOSE=1 prints each miss.
import { readFileSync } from "node:fs";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import { type AnswerResult, checkAnswer } from "../src/core/index.js";

type Label = "supported" | "partially_supported" | "not_supported";

interface ClaimLine {
  label: Label;
  supporting_sentences: number[][];
  claim: string;
  evidence: string[];
  meta: { id: string };
}

interface TokenLine {
  claim_tokens: string[];
  non_supported_spans: boolean[];
  meta: { id: string };
}

const CLAIMS = "raw/wice/claim-dev.jsonl";
const TOKENS = "raw/wice/non-supported-tokens-dev.jsonl";

const readLines = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);

const percent = (a: number, b: number): string => (b === 0 ? "–" : `${((a / b) * 100).toFixed(1)}%`);

/** The words (lower case) each claim's annotators marked unsupported, over all its sub-claims. */
function unsupportedWords(tokens: readonly TokenLine[]): Map<string, Set<string>> {
  const words = new Map<string, Set<string>>();
  for (const line of tokens) {
    const id = line.meta.id.replace(/-\d+$/, "");
    const set = words.get(id) ?? new Set<string>();
    for (const [index, token] of line.claim_tokens.entries()) {
      if (line.non_supported_spans[index] === true && /[\p{L}\p{N}]/u.test(token))
        set.add(token.toLowerCase());
    }
    words.set(id, set);
  }
  return words;
}

/** The words a result names as held by no source (a kept claim's partial terms), lower case. */
function namedWords(result: AnswerResult): string[] {
  const named: string[] = [];
  for (const { term } of result.partial) named.push(...term.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return named.filter((word) => word !== "");
}

export default async function wice(): Promise<void> {
  const claimsPath = findBenchData(CLAIMS);
  const tokensPath = findBenchData(TOKENS);
  if (claimsPath === undefined || tokensPath === undefined) {
    console.log(missingBenchData(claimsPath === undefined ? CLAIMS : TOKENS));
    return;
  }
  const lines = readLines<ClaimLine>(claimsPath);
  const annotated = unsupportedWords(readLines<TokenLine>(tokensPath));
  const verbose = process.env.VERBOSE === "1";
  const byLabel = new Map<Label, { total: number; kept: number; flagged: number; partial: number }>();
  const reasons = new Map<string, { flags: number; right: number }>();
  let spans = 0;
  let spansInGold = 0;
  let partialAnnotated = 0;
  let partialCaught = 0;
  let partialCaughtAll = 0;
  for (const line of lines) {
    const text = line.evidence.join("\n");
    const starts: number[] = [];
    let at = 0;
    for (const sentence of line.evidence) {
      starts.push(at);
      at += sentence.length + 1;
    }
    const result = checkAnswer([{ id: "page", text }], `${line.claim} [1]`, { explain: true });
    const flagged = result.unsupported.length > 0;
    const named = namedWords(result);
    const isPartial = !flagged && named.length > 0;
    const tally = byLabel.get(line.label) ?? { total: 0, kept: 0, flagged: 0, partial: 0 };
    tally.total++;
    if (flagged) tally.flagged++;
    else if (isPartial) tally.partial++;
    else tally.kept++;
    byLabel.set(line.label, tally);
    const first = result.unsupported[0];
    if (first !== undefined) {
      const reason = reasons.get(first.reason) ?? { flags: 0, right: 0 };
      reason.flags++;
      if (line.label !== "supported") reason.right++;
      reasons.set(first.reason, reason);
    }
    if (line.label === "supported" && !flagged) {
      // Whether every span of the claim lies in (overlaps) a sentence of some gold supporting set.
      const gold = new Set(line.supporting_sentences.flat());
      for (const citation of result.citations) {
        spans++;
        const [start, end] = citation.range;
        let inGold = false;
        for (const index of gold) {
          const from = starts[index] ?? -1;
          const to = from + (line.evidence[index]?.length ?? 0);
          if (from >= 0 && start < to && from < end) inGold = true;
        }
        if (inGold) spansInGold++;
      }
    }
    if (line.label === "partially_supported") {
      const words = annotated.get(line.meta.id);
      const caught = flagged || (words !== undefined && named.some((word) => words.has(word)));
      if (flagged || isPartial) partialCaughtAll++;
      if (words !== undefined && words.size > 0) {
        partialAnnotated++;
        if (caught) partialCaught++;
      }
    }
    const miss =
      (line.label === "supported" && (flagged || isPartial)) || (line.label === "not_supported" && !flagged);
    if (verbose && miss) {
      const detail =
        first === undefined
          ? `partial ${JSON.stringify(named)}`
          : `${first.reason} ${JSON.stringify(first.detail ?? {})}`;
      console.log(`${line.label} ${line.meta.id} ${detail} ${JSON.stringify(line.claim)}`);
    }
  }
  console.log(
    `${lines.length} claims of WiCE dev, each against its cited page (one source), as \`claim [1]\`.\n`,
  );
  console.log("| label | n | kept | kept, partial named | flagged |\n|---|---|---|---|---|");
  for (const label of ["supported", "partially_supported", "not_supported"] as const) {
    const t = byLabel.get(label) ?? { total: 0, kept: 0, flagged: 0, partial: 0 };
    console.log(
      `| ${label} | ${t.total} | ${percent(t.kept, t.total)} | ${percent(t.partial, t.total)} | ${percent(t.flagged, t.total)} |`,
    );
  }
  console.log(
    "\nFlag precision by first reason (a flag is right when the claim is not labelled supported):\n",
  );
  console.log("| reason | flags | right | precision |\n|---|---|---|---|");
  for (const [reason, { flags, right }] of [...reasons].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`| ${reason} | ${flags} | ${right} | ${percent(right, flags)} |`);
  }
  const supported = byLabel.get("supported") ?? { total: 0, kept: 0, flagged: 0, partial: 0 };
  const notSupported = byLabel.get("not_supported") ?? { total: 0, kept: 0, flagged: 0, partial: 0 };
  const partial = byLabel.get("partially_supported") ?? { total: 0, kept: 0, flagged: 0, partial: 0 };
  console.log(
    `\nSpans of kept supported claims inside a gold supporting sentence: ${spansInGold}/${spans} (${percent(spansInGold, spans)}).`,
  );
  console.log(
    `Partially supported, flagged or naming an annotated unsupported word: ${partialCaught}/${partialAnnotated} (${percent(partialCaught, partialAnnotated)}) of those with token annotations; flagged or named at all: ${partialCaughtAll}/${partial.total} (${percent(partialCaughtAll, partial.total)}).`,
  );
  const keptSupported = (supported.kept + supported.partial) / supported.total;
  const goals = [
    ["supported claims kept (partial included) at least 85%", keptSupported >= 0.85],
    ["not_supported flagged at least 85%", notSupported.flagged / notSupported.total >= 0.85],
    [
      "partially supported flagged or an annotated word named at least 80%",
      partialCaught / partialAnnotated >= 0.8,
    ],
  ] as const;
  console.log("\nGoals (dev split, read while tuning):");
  for (const [goal, met] of goals) console.log(`- ${goal}: ${met ? "met" : "NOT met"}`);
}
