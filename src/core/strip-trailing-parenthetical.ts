/**
 * The label without one trailing parenthetical (`Revenue ($M)` → `Revenue`, nested parentheses
 * included), or null when it has none or nothing would be left.
 */
export function stripTrailingParenthetical(label: string): string | null {
  const trimmed = label.trimEnd();
  if (!trimmed.endsWith(")")) return null;
  let depth = 0;
  for (let index = trimmed.length - 1; index >= 0; index -= 1) {
    const character = trimmed[index];
    if (character === ")") depth += 1;
    else if (character === "(") {
      depth -= 1;
      if (depth === 0) {
        const rest = trimmed.slice(0, index).trim();
        return rest === "" ? null : rest;
      }
    }
  }
  return null;
}
