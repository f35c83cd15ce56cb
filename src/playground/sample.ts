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
