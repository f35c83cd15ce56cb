import type pc from "picocolors";
import type { ExtractResult } from "../../client/index.js";
import { formatCount, formatScore, terminalText } from "../reports/index.js";

type Colors = ReturnType<typeof pc.createColors>;

/**
 * The human output of `verified extract`: each field, its value and where it was found, then coverage. Names and
 * values come from the caller and the model, so they are printed inert (`terminalText`).
 */
export function renderExtractResult(result: ExtractResult, colors: Colors): string {
  const entries = Object.entries(result.fields);
  const width = Math.max(...entries.map(([name]) => terminalText(name).length));
  const lines = entries.map(([name, field]) => {
    const label = terminalText(name).padEnd(width);
    if (field.value === null)
      return `${colors.red("✗")} ${label}  ${colors.dim(`not found (${field.reason})`)}`;
    const range = colors.dim(`[${field.range[0]}, ${field.range[1]})`);
    return `${colors.green("✓")} ${label}  ${terminalText(JSON.stringify(field.value))}  ${colors.cyan(terminalText(field.source))} ${range}`;
  });
  const grounded = entries.filter(([, field]) => field.grounded).length;
  const paint = result.coverage >= 1 ? colors.green : result.coverage > 0 ? colors.yellow : colors.red;
  const facts = [
    paint(`coverage ${formatScore(result.coverage)} (${grounded} of ${entries.length} fields found)`),
    formatCount(result.usage.modelCalls, "model call"),
    formatCount(result.usage.totalTokens, "token"),
  ];
  lines.push("", facts.join(colors.dim(" · ")));
  return `${lines.join("\n")}\n`;
}
