// The rule list of docs/number-checks.md, between its markers, and a writer for it:
//   npx tsx test/support/rule-list.ts   rewrites the list from the registry (src/core/binding/binding-rules.ts)
// test/binding-rules-docs.test.ts holds the two equal.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderRuleList } from "../../src/core/binding/index.js";

export const DOC = fileURLToPath(new URL("../../docs/number-checks.md", import.meta.url));
export const START = "<!-- rule list: generated from src/core/binding/binding-rules.ts -->";
export const END = "<!-- end of rule list -->";

/** The text between the doc's markers, trimmed. */
export function documentedRuleList(doc = readFileSync(DOC, "utf8")): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/number-checks.md: no rule list markers`);
  return doc.slice(start + START.length, end).trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(DOC, "utf8");
  const start = doc.indexOf(START) + START.length;
  writeFileSync(DOC, `${doc.slice(0, start)}\n\n${renderRuleList()}\n\n${doc.slice(doc.indexOf(END))}`);
}
