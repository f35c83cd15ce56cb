// True when `text` holds whitespace other than lone ASCII spaces: only then is the collapsing replace needed.
function needsCollapse(text: string): boolean {
  let previousSpace = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 32) {
      if (previousSpace) return true;
      previousSpace = true;
      continue;
    }
    previousSpace = false;
    if (code < 32 || (code > 126 && /\s/.test(text.charAt(index)))) return true;
  }
  return false;
}

/**
 * Folds text for label matching: lower case, every whitespace run as one space. Digits, `.` and `,` are kept, so the numbers of a folded claim are
 * the claim's numbers.
 */
export function foldLabelText(text: string): string {
  const lower = text.toLowerCase();
  // A few letters lower-case to two code units (`İ`); fold those one at a time so no text shifts.
  const folded =
    lower.length === text.length
      ? lower
      : Array.from(text, (character) => {
          const each = character.toLowerCase();
          return each.length === character.length ? each : character;
        }).join("");
  return needsCollapse(folded) ? folded.replace(/\s+/g, " ") : folded;
}

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
