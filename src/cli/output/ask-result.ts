import type pc from "picocolors";
import type { CreateResult, PartialTerm, UnsupportedClaim } from "../../client/index.js";
import { describeDrop } from "../../core/index.js";
import { formatCount, formatScore, terminalLines, terminalText } from "../reports/index.js";

type Colors = ReturnType<typeof pc.createColors>;

/** What `verified ask` got: an answer, or the service's refusal because no claim could be grounded. */
export type AskOutcome =
  | { kind: "answer"; result: CreateResult }
  | { kind: "ungrounded"; message: string; unsupported: UnsupportedClaim[] };

/**
 * The human output of `verified ask`: the answer with its `[source]` markers, each citation with its source
 * and range `[start, end)`, each kept sentence of a prose answer whose words are not all in its sources (with
 * those words), each dropped claim with its reason, then coverage and usage, and under a
 * grounded answer one line on what "grounded" means. Model-written text is printed inert (`terminalLines`,
 * `terminalText`): a model cannot drive the reader's terminal.
 */
export function renderAskResult(outcome: AskOutcome, sourceIds: readonly string[], colors: Colors): string {
  const lines: string[] = [];
  if (outcome.kind === "ungrounded") {
    lines.push(colors.red(terminalLines(outcome.message)));
    lines.push(...renderDropped(outcome.unsupported, colors));
    return `${lines.join("\n")}\n`;
  }
  const { result } = outcome;
  lines.push(highlightMarkers(terminalLines(result.text), sourceIds, colors));
  if (!result.grounded)
    lines.push(colors.yellow("(not grounded: a plain answer, not checked against the sources)"));
  if (result.citations.length > 0) {
    lines.push("", colors.bold("Citations"));
    for (const [index, citation] of result.citations.entries()) {
      lines.push(`  ${colors.green(`${index + 1}.`)} ${terminalText(citation.claim)}`);
      const quote =
        citation.quote === citation.claim
          ? ""
          : ` ${colors.dim(terminalText(JSON.stringify(citation.quote)))}`;
      lines.push(
        `     ${colors.cyan(terminalText(citation.source))} ${colors.dim(`[${citation.range[0]}, ${citation.range[1]})`)}${quote}`,
      );
    }
  }
  lines.push(...renderPartial(result.partial ?? [], colors));
  lines.push(...renderDropped(result.unsupported, colors));
  const claims = result.citations.length + result.unsupported.length;
  const coverage = `coverage ${formatScore(result.coverage)} (${result.citations.length} of ${claims} claims grounded)`;
  const paint = result.coverage >= 1 ? colors.green : result.coverage > 0 ? colors.yellow : colors.red;
  const facts = [
    paint(coverage),
    ...(result.abstained ? [colors.yellow("abstained")] : []),
    formatCount(result.usage.modelCalls, "model call"),
    formatCount(result.usage.totalTokens, "token"),
  ];
  lines.push("", facts.join(colors.dim(" · ")));
  if (result.grounded && result.citations.length > 0) lines.push(colors.dim(groundedMeaning));
  return `${lines.join("\n")}\n`;
}

/** Newcomers read "grounded" as "answered"; one quiet line under a grounded answer says what it checks. */
const groundedMeaning =
  "grounded = each claim above quotes a source; it does not mean the question was answered";

// A prose answer's kept, partially supported sentences, each once, with the words no source holds.
function renderPartial(partial: readonly PartialTerm[], colors: Colors): string[] {
  if (partial.length === 0) return [];
  const words = new Map<string, string[]>();
  for (const { claim, term } of partial) words.set(claim, [...(words.get(claim) ?? []), term]);
  return [
    "",
    colors.bold("Partly supported (kept)"),
    ...[...words].flatMap(([claim, terms]) => [
      `  ${colors.yellow("~")} ${terminalText(claim)}`,
      `     ${colors.dim("not in the sources:")} ${terminalText(terms.map((term) => JSON.stringify(term)).join(", "))}`,
    ]),
  ];
}

function renderDropped(unsupported: readonly UnsupportedClaim[], colors: Colors): string[] {
  if (unsupported.length === 0) return [];
  return [
    "",
    colors.bold("Dropped claims"),
    ...unsupported.map((entry) => {
      // With --explain, the detail in words: the name, number, quotation or source that failed.
      const why = describeDrop(entry);
      const reason = why === undefined ? entry.reason : `${entry.reason}: ${why}`;
      return `  ${colors.red("✗")} ${terminalText(entry.claim)} ${colors.dim(`(${terminalText(reason)})`)}`;
    }),
  ];
}

/** Colours the service's `[sourceId]` markers, and only those naming a supplied source. */
function highlightMarkers(text: string, sourceIds: readonly string[], colors: Colors): string {
  const known = new Set(sourceIds);
  return text.replace(/\[([^[\]\n]+)\]/g, (marker, id: string) =>
    known.has(id) ? colors.cyan(marker) : marker,
  );
}
