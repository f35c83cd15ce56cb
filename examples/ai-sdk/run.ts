// Runs the example on a mock model of the AI SDK (no network, no key) and checks its answer: the grounded
// claim is kept with a range that slices its quote out of the source, the invented one is dropped.
// Usage: npx tsx examples/ai-sdk/run.ts (CI runs it; `npm run build` first, for the library entry).
import assert from "node:assert/strict";
import { MockLanguageModelV4 } from "ai/test";
import type { Source } from "verified-answers";
import { generateChecked, generateVerified } from "./verified-generate.js";

const sources: Source[] = [
  { id: "policy", text: "😀 Refunds are accepted within 30 days of purchase.\r\nOrders over $50 ship free." },
];
const modelAnswer = {
  claims: [
    { claim: "You can get a refund within 30 days.", quote: "within 30 days of purchase", source: "policy" },
    { claim: "Refunds take 90 days.", quote: "within 90 days", source: "policy" },
  ],
};
// A mock model of the AI SDK that replies `text` (no network, no key).
const mockModel = (text: string) =>
  new MockLanguageModelV4({
    doGenerate: {
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 40, noCache: 40, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 30, text: 30, reasoning: 0 },
      },
      warnings: [],
    },
  });
const model = mockModel(JSON.stringify(modelAnswer));

const result = await generateVerified({ model, question: "Can I get a refund?", sources });

assert.equal(model.doGenerateCalls.length, 1);
assert.deepEqual(
  result.citations.map((citation) => citation.claim),
  ["You can get a refund within 30 days."],
);
const [citation] = result.citations;
assert.ok(citation);
assert.equal(sources[0]?.text.slice(citation.range[0], citation.range[1]), citation.quote);
// A dropped claim says what the model tried: its quote and the source it named.
assert.deepEqual(result.unsupported, [
  { claim: "Refunds take 90 days.", reason: "quote_not_found", quote: "within 90 days", source: "policy" },
]);
assert.equal(result.coverage, 0.5);
console.log(
  `${result.text}\n(coverage ${result.coverage}; dropped: ${result.unsupported.map((item) => item.claim).join(", ")})`,
);

// Answer mode: the model writes prose with `[policy]` markers; the sentence with a number the source does
// not hold is cut, the other kept with the span that supports it.
const proseModel = mockModel(
  "You can get a refund within 30 days of purchase [policy]. Refunds take 90 days [policy].",
);
const checked = await generateChecked({ model: proseModel, question: "Can I get a refund?", sources });
assert.equal(checked.text, "You can get a refund within 30 days of purchase [policy].");
const [support] = checked.citations;
assert.ok(support);
assert.equal(sources[0]?.text.slice(support.range[0], support.range[1]), support.quote);
assert.deepEqual(
  checked.unsupported.map(({ claim, reason, answerRange }) => ({ claim, reason, answerRange })),
  [{ claim: "Refunds take 90 days.", reason: "number_not_found", answerRange: [58, 88] }],
);
console.log(`${checked.text}\n(answer mode: coverage ${checked.coverage})`);
