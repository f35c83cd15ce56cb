// Run by install-check.sh from inside the fresh project, so the imports below resolve to the installed
// package by name. Waits for the service, then answers a create on the local model through the client.
import assert from "node:assert/strict";
import { setTimeout as delay } from "node:timers/promises";
import { verifyClaims } from "verified-answers";
import { Verified } from "verified-answers/client";

const baseURL = process.argv[2];
const deadline = Date.now() + 60_000;
for (;;) {
  const ready = await fetch(`${baseURL}/readyz`).catch(() => undefined);
  if (ready?.status === 200) break;
  if (Date.now() > deadline) throw new Error(`${baseURL}/readyz did not answer 200 within 60 s`);
  await delay(100);
}

const sources = [
  { id: "returns", text: "You can return any product within 30 days of delivery." },
  { id: "shipping", text: "Standard shipping takes 3 to 5 days." },
];
const client = new Verified({ baseURL, apiKey: "any-key" });
const result = await client.create({
  model: "local",
  messages: [{ role: "user", content: "How long do I have to return a product?" }],
  sources,
});
assert.equal(result.grounded, true, JSON.stringify(result));
assert.ok(result.citations.length > 0, JSON.stringify(result));
for (const citation of result.citations) {
  const source = sources.find((candidate) => candidate.id === citation.source);
  assert.equal(source?.text.slice(...citation.range), citation.quote);
}

const checked = verifyClaims(sources, [
  { claim: "Returns are accepted for 30 days.", quote: "within 30 days", source: "returns" },
]);
assert.deepEqual(checked.citations[0]?.range, [27, 41]);
console.log(`consumer: create answered "${result.text}" with ${result.citations.length} citation(s)`);
