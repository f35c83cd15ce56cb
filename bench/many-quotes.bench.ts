// Many distinct quotes against one large source, through the core's claim check (`judgeClaims`, which
// announces each claim's quote to its source): a 2 MiB source, larger than the default sources budget, as a
// raised `sourcesBudget` allows, and 1,000 distinct quotes of 2 to 6 KB, none repeating. Near misses whose
// every token the source holds, and quotes that occur only at the source's end. One at a time each quote
// costs a linear search of the whole source; found at once, the request costs O(n + Σm). CPU time per
// request, median of 3 after a warm-up; each result is checked (how many claims are grounded).
//   npm run bench -- many-quotes

import { cpus, loadavg } from "node:os";
import { judgeClaims } from "../src/core/claims/verify-claims.js";
import { prepareSources } from "../src/core/prepared-source.js";
import type { CandidateClaim, MatchMode } from "../src/core/types.js";
import { formatMs, median } from "./support/statistics.js";

const SOURCE_CHARS = 2 * 1024 * 1024;
const QUOTES = 1_000;
const RUNS = 3;

const variants = [
  {
    name: "near misses: `'a b '×(500 + i) + 'b a'` against `'a b '×n`",
    text: "a b ".repeat(SOURCE_CHARS / 4),
    quote: (index: number) => `${"a b ".repeat(500 + index)}b a`,
    grounded: 0,
  },
  {
    name: "found only at the end: `'a '×(1,000 + i) + 'b'` against `'a '×n + 'b'`",
    text: `${"a ".repeat(SOURCE_CHARS / 2 - 1)}b`,
    quote: (index: number) => `${"a ".repeat(1_000 + index)}b`,
    grounded: QUOTES,
  },
];

function cpuMsOf(run: () => void): number {
  const started = process.cpuUsage();
  run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

export default async function run(): Promise<void> {
  console.log(
    `${QUOTES.toLocaleString("en-US")} distinct quotes against one ${SOURCE_CHARS.toLocaleString("en-US")}-character ` +
      `source; CPU per request, median of ${RUNS} after a warm-up; ${cpus().length} CPUs, load average ` +
      `${(loadavg()[0] ?? 0).toFixed(1)}.\n`,
  );
  console.log("| quotes | mode | Σm (chars) | CPU |");
  console.log("|---|---|---|---|");
  for (const variant of variants) {
    const claims: CandidateClaim[] = Array.from({ length: QUOTES }, (_, index) => ({
      claim: "c",
      quote: variant.quote(index),
      source: "s",
    }));
    const quoteChars = claims.reduce((sum, claim) => sum + (claim.quote?.length ?? 0), 0);
    for (const mode of ["strict", "lenient"] as MatchMode[]) {
      const check = () => judgeClaims(prepareSources([{ id: "s", text: variant.text }]), claims, { mode });
      const grounded = check().filter((verdict) => verdict.grounded).length;
      if (grounded !== variant.grounded) {
        throw new Error(
          `${variant.name}, ${mode}: ${grounded} claims grounded, expected ${variant.grounded}`,
        );
      }
      const cpuMs = Array.from({ length: RUNS }, () => cpuMsOf(check));
      console.log(
        `| ${variant.name} | ${mode} | ${quoteChars.toLocaleString("en-US")} | ${formatMs(median(cpuMs))} |`,
      );
    }
  }
}
