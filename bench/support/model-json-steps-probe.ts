// A model's claims reply read as create reads a whole reply (`parseModelJsonSteps`: the shape scan a MiB a step,
// then the parse), in process: COUNT claims, each `claim` padded with PAD characters (every fifth quote absent).
// Prints the longest step and the steps' total (medians of RUNS runs, each run's longest step in brackets) beside
// the load average: a step is what runs between two turns of the event loop in the service.
//   npx tsx bench/support/model-json-steps-probe.ts [COUNT=20000] [PAD=0] [RUNS=5]
import { loadavg } from "node:os";
import { parseModelJsonSteps } from "../../src/service/model-json.js";

const [countArg = "20000", padArg = "0", runsArg = "5"] = process.argv.slice(2);
const content = JSON.stringify({
  claims: Array.from({ length: Number(countArg) }, (_, index) => ({
    claim: `Claim ${index} about the founding.${"x".repeat(Number(padArg))}`,
    quote: index % 5 === 4 ? `absent ${index}` : "Northwind was founded in 2016 in Lyon.",
    source: "report",
  })),
});
const longest: number[] = [];
const totals: number[] = [];
for (let run = 0; run < Number(runsArg); run += 1) {
  const steps = parseModelJsonSteps(content);
  let max = 0;
  let total = 0;
  for (;;) {
    const started = performance.now();
    const next = steps.next();
    const took = performance.now() - started;
    max = Math.max(max, took);
    total += took;
    if (next.done === true) {
      if (!next.value.ok) throw new Error(next.value.error);
      break;
    }
  }
  longest.push(max);
  totals.push(total);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(
  `${content.length} characters: longest step median ${median(longest).toFixed(1)} ms [${longest.map((ms) => ms.toFixed(0)).join(", ")}], ` +
    `all steps median ${median(totals).toFixed(1)} ms; load ${loadavg()[0]?.toFixed(2)}`,
);
