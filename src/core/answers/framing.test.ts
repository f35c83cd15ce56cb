import { describe, expect, it } from "vitest";
import type { StepCounter } from "../step-counter.js";
import { answerClaims } from "./answer-claims.js";
import { findMarkers } from "./markers.js";

// Answers made of what the framing checks read at every sentence: framing openers, questions to the reader,
// bold lead-ins, and long sentences that open like framing; the splitting's steps (framing checks included)
// per character stay flat as the answer grows.
const families: [string, (count: number) => string][] = [
  ["framing openers", (count) => "Here's an overview. Sure! Let me know if you need more. ".repeat(count)],
  ["questions to the reader", (count) => "Would you like the details? ".repeat(count)],
  ["bold lead-ins on their own lines", (count) => "**Time limit.**\n".repeat(count)],
  [
    "long sentences opening as framing",
    (count) => `Here's ${"a very long and winding note ".repeat(30)}.\n`.repeat(count),
  ],
  ["bold sentences too long for a lead-in", (count) => `**${"word ".repeat(60)}**\n`.repeat(count)],
];

function stepsPerChar(answer: string): number {
  const counter: StepCounter = { steps: 0 };
  for (const _ of answerClaims(answer, findMarkers(answer), counter));
  return counter.steps / answer.length;
}

describe("answerClaims: the framing checks are linear in the answer (counted, not timed)", () => {
  it.each(families)("%s: steps per character stay flat as the answer doubles from 1× to 32×", (_, make) => {
    const base = stepsPerChar(make(20));
    for (const scale of [2, 4, 8, 16, 32]) expect(stepsPerChar(make(20 * scale))).toBeLessThan(1.5 * base);
  });
});
