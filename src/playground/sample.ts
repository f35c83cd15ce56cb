import { sampleQuestion, sampleSchema, sampleSources } from "../sample.js";
import type { DatasetCase } from "./parse-dataset.js";

// The same sample the local model is tuned and tested on, so the first click shows a real, grounded answer.
export { sampleQuestion, sampleSources };

/** Fields for the Extract sample. */
export const sampleFields: Record<string, string> = sampleSchema;

const ask = (question: string): DatasetCase["messages"] => [{ role: "user", content: question }];

/** A small dataset for the Eval sample; the last question is off topic, so one bar shows low coverage. */
export const sampleDataset: DatasetCase[] = [
  { id: "growth", messages: ask(sampleQuestion), sources: sampleSources },
  {
    id: "leadership",
    messages: ask("Who is the chief executive, and where is the head office?"),
    sources: sampleSources,
  },
  { id: "margin", messages: ask("How did the operating margin change in 2024?"), sources: sampleSources },
  { id: "off-topic", messages: ask("What is the boiling point of water on Mars?"), sources: sampleSources },
];

/**
 * An answer for the Check sample, written as a retrieval app would: two sentences its sources support, one
 * citing the wrong source, one with a number and one with a city that no source holds.
 */
export const sampleAnswer = `Revenue for 2024 was $18.4 million, up 22% over 2023 [1]. The strongest quarter was Q4, with revenue of $5.6 million [annual-report-2024].

- The chief executive is Amélie Durand [1].
- The company has 310 employees [2].
- It opened an office in Berlin in 2024 [2].`;
