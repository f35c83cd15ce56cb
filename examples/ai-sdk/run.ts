// Runs the example on a mock model of the AI SDK (no network, no key) and checks its answer: the grounded
// claim is kept with a range that slices its quote out of the source, the invented one is dropped.
// Usage: npx tsx examples/ai-sdk/run.ts (CI runs it; `npm run build` first, for the library entry).
import assert from "node:assert/strict";
import { MockLanguageModelV4 } from "ai/test";
import type { Source } from "verified-answers";
import { generateVerified } from "./verified-generate.js";

const sources: Source[] = [
  { id: "policy", text: "😀 Refunds are accepted within 30 days of purchase.\r\nOrders over $50 ship free." },
];
const modelAnswer = {
  claims: [
    { claim: "You can get a refund within 30 days.", quote: "within 30 days of purchase", source: "policy" },
    { claim: "Refunds take 90 days.", quote: "within 90 days", source: "policy" },
  ],
};
const model = new MockLanguageModelV4({
  doGenerate: {
    content: [{ type: "text", text: JSON.stringify(modelAnswer) }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: 40, noCache: 40, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 30, text: 30, reasoning: 0 },
    },
    warnings: [],
  },
});

const result = await generateVerified({ model, question: "Can I get a refund?", sources });

assert.equal(model.doGenerateCalls.length, 1);
assert.deepEqual(
  result.citations.map((citation) => citation.claim),
  ["You can get a refund within 30 days."],
);
const [citation] = result.citations;
assert.ok(citation);
assert.equal(sources[0]?.text.slice(citation.range[0], citation.range[1]), citation.quote);
assert.deepEqual(result.unsupported, [{ claim: "Refunds take 90 days.", reason: "quote_not_found" }]);
assert.equal(result.coverage, 0.5);
console.log(
  `${result.text}\n(coverage ${result.coverage}; dropped: ${result.unsupported.map((item) => item.claim).join(", ")})`,
);
