// Answer mode on answers built from the repository's own span data (../shared/data/spans.jsonl: XQuAD and
// TAT-QA contexts with answer spans; CC BY-SA 4.0 and CC BY 4.0). Each case has three contexts as sources
// and an answer of two claims from two of them, each with a marker naming its source. A claim is written
// two ways: the context's sentence that holds the answer span (as a model that copies would) and the
// question turned into a statement with the answer after it (as a model that paraphrases would). Right
// answers must keep every claim and cite each span's own source with a range that covers the span; the same
// answers with each marker moved to another source of the case must be dropped as `wrong_source` naming the
// right source. Set VERBOSE=1 to print the misses.
import { readFileSync } from "node:fs";
import { findBenchData, missingBenchData } from "../scripts/bench-data/locations.js";
import { checkAnswer, splitSentences } from "../src/core/index.js";

interface SpanLine {
  id: string;
  context: string;
  question: string;
  answer: string;
  start: number;
}

const DATA = findBenchData("spans.jsonl");

/** The sentence of `context` that holds `[start, end)`, or null when the span crosses sentences. */
function sentenceHolding(context: string, start: number, end: number): string | null {
  for (const sentence of splitSentences(context)) {
    if (sentence.start <= start && end <= sentence.end) return sentence.text;
  }
  return null;
}

const statement = (line: SpanLine): string =>
  `${line.question.trim().replace(/[?？]+$/u, "")}: ${line.answer.trim()}`;

interface Tally {
  cases: number;
  kept: number;
  spans: number;
  covered: number;
  moved: number;
  caught: number;
  misses: string[];
}

const tally = (): Tally => ({ cases: 0, kept: 0, spans: 0, covered: 0, moved: 0, caught: 0, misses: [] });
const percent = (a: number, b: number): string => `${((a / b) * 100).toFixed(1)}%`;

export default async function answerAttribution(): Promise<void> {
  if (DATA === undefined) {
    console.log(missingBenchData("spans.jsonl"));
    return;
  }
  const lines = readFileSync(DATA, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SpanLine);
  const contexts = [...new Set(lines.map((line) => line.context))];
  const contextIndex = new Map(contexts.map((context, index) => [context, index]));
  const styles = { "copied sentence": tally(), "question as statement": tally() };
  for (const [position, first] of lines.entries()) {
    // The partner claim: the next line from another context; a third context is a distractor.
    const second = lines.slice(position + 1).find((line) => line.context !== first.context);
    if (second === undefined) continue;
    const firstContext = contextIndex.get(first.context) as number;
    const secondContext = contextIndex.get(second.context) as number;
    let thirdContext = (firstContext + 7) % contexts.length;
    while (thirdContext === firstContext || thirdContext === secondContext)
      thirdContext = (thirdContext + 1) % contexts.length;
    const order = [firstContext, secondContext, thirdContext].sort(
      (a, b) => ((a * 31 + position) % 3) - ((b * 31 + position) % 3) || a - b,
    );
    const sources = order.map((context) => ({ id: `doc-${context}`, text: contexts[context] as string }));
    const idOf = (line: SpanLine): string => `doc-${contextIndex.get(line.context)}`;
    for (const [style, target] of Object.entries(styles)) {
      const claims = [first, second].map((line) =>
        style === "copied sentence"
          ? sentenceHolding(line.context, line.start, line.start + line.answer.length)
          : statement(line),
      );
      if (claims.some((claim) => claim === null)) continue;
      const written = (markerOf: (line: SpanLine) => string): string =>
        [first, second]
          .map((line, index) => `${(claims[index] as string).replace(/[.!?]?$/, "")} [${markerOf(line)}].`)
          .join(" ");
      target.cases++;
      // A paraphrasing model answers the user's questions: they are the conversation.
      const question = style === "copied sentence" ? [] : [first.question, second.question];
      const right = checkAnswer(sources, written(idOf), { question });
      if (right.unsupported.length === 0) target.kept++;
      else target.misses.push(`dropped ${right.unsupported[0]?.reason}: ${right.unsupported[0]?.claim}`);
      for (const line of [first, second]) {
        target.spans++;
        const end = line.start + line.answer.length;
        const cited = right.citations.some(
          (citation) =>
            citation.source === idOf(line) && citation.range[0] <= line.start && end <= citation.range[1],
        );
        if (cited) target.covered++;
      }
      // Every marker moved to the next source of the case that is not its own.
      const movedId = (line: SpanLine): string => {
        const own = sources.findIndex((source) => source.id === idOf(line));
        return (sources[(own + 1) % sources.length] as { id: string }).id;
      };
      const moved = checkAnswer(sources, written(movedId), { question });
      for (const line of [first, second]) {
        target.moved++;
        const entry = moved.unsupported.find((item) =>
          item.claim.startsWith((claims[[first, second].indexOf(line)] as string).slice(0, 20)),
        );
        const detail = entry?.detail as { foundIn?: string[] } | undefined;
        if (entry?.reason === "wrong_source" && detail?.foundIn?.includes(idOf(line)) === true)
          target.caught++;
        else
          target.misses.push(
            `moved marker not caught (${entry?.reason ?? "kept"}): ${claims[[first, second].indexOf(line)]}`,
          );
      }
    }
  }
  console.log(
    "| claims written as | cases | right answers kept whole | spans cited at the right source and range | moved markers dropped as wrong_source naming the right source |",
  );
  console.log("|---|---|---|---|---|");
  for (const [style, t] of Object.entries(styles)) {
    console.log(
      `| ${style} | ${t.cases} | ${percent(t.kept, t.cases)} | ${percent(t.covered, t.spans)} | ${percent(t.caught, t.moved)} |`,
    );
  }
  console.log("\nGoals (each style):");
  for (const [style, t] of Object.entries(styles)) {
    const verdicts = [
      ["at least 95% of right answers kept", t.kept / t.cases >= 0.95],
      ["95% of their spans cited at the right source and range", t.covered / t.spans >= 0.95],
      ["90% of moved markers dropped as wrong_source", t.caught / t.moved >= 0.9],
    ] as const;
    console.log(
      `- ${style}: ${verdicts.map(([goal, met]) => `${goal}: ${met ? "met" : "NOT met"}`).join("; ")}`,
    );
  }
  if (process.env.VERBOSE === "1")
    for (const [style, t] of Object.entries(styles))
      for (const miss of t.misses.slice(0, 30)) console.log(`${style}: ${miss}`);
}
