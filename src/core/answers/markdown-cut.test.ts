import { describe, expect, it } from "vitest";
import type { StepCounter } from "../step-counter.js";
import type { Range } from "../types.js";
import { removeSpans } from "./answer-text.js";

// Answers whose every claim is dropped or kept in turn, at their worst for the markdown cut: one line of many
// claims with emphasis around each (every delimiter checked against every cut of its line), many short
// lines, and emphasis runs that pair across the cuts.
const families: [string, (count: number) => { answer: string; spans: Range[] }][] = [
  [
    "one line of many bold claims, every other one dropped",
    (count) => oneLine("**Alpha beta.** Gamma _delta_. ", count),
  ],
  ["one line of emphasis runs, every other piece dropped", (count) => oneLine("* _ ** __ *a* _b_ ", count)],
  ["one line of underscores inside words", (count) => oneLine("snake_case_name and_more ", count)],
  [
    "many lines of bold lead-ins, each sentence dropped",
    (count) => {
      const line = "- **Refunds.** Phones can be returned in 30 days.";
      const answer = Array.from({ length: count }, () => line).join("\n");
      const spans: Range[] = [];
      for (let index = 0; index < count; index++) {
        const start = index * (line.length + 1) + line.indexOf("Phones");
        spans.push([start, index * (line.length + 1) + line.length]);
      }
      return { answer, spans };
    },
  ],
];

// `unit` repeated on one line, every other unit a dropped span.
function oneLine(unit: string, count: number): { answer: string; spans: Range[] } {
  const spans: Range[] = [];
  for (let index = 1; index < count; index += 2)
    spans.push([index * unit.length, (index + 1) * unit.length - 1]);
  return { answer: unit.repeat(count), spans };
}

function stepsPerChar({ answer, spans }: { answer: string; spans: Range[] }): number {
  const counter: StepCounter = { steps: 0 };
  removeSpans(answer, spans, counter);
  return counter.steps / answer.length;
}

describe("removeSpans: the markdown cut is linear in the answer (counted, not timed)", () => {
  it.each(families)("%s: steps per character stay flat as the answer doubles from 1× to 32×", (_, make) => {
    const base = stepsPerChar(make(100));
    for (const scale of [2, 4, 8, 16, 32]) expect(stepsPerChar(make(100 * scale))).toBeLessThan(2 * base + 1);
    expect(base).toBeLessThan(20);
  });
});
