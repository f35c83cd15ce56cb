import { ruleOn } from "../wording/index.js";

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
 * Folds text for label matching: lower case, every whitespace run as one space, and no space just inside
 * a bracket (`( 2009 )` as `(2009)`). Digits, `.` and `,` are kept, so the numbers of a folded claim are
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
  const collapsed = needsCollapse(folded) ? folded.replace(/\s+/g, " ") : folded;
  const loose = collapsed.includes("( ") || collapsed.includes(" )");
  return loose && ruleOn("R22") ? tightenBrackets(collapsed) : collapsed;
}

// Drops the space just inside each bracket: `xe ( 2009 )` and `xe (2009)` are one label. One pass.
function tightenBrackets(text: string): string {
  let result = "";
  let from = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) !== 32) continue;
    if (text.charCodeAt(index - 1) === 40 || text.charCodeAt(index + 1) === 41) {
      result += text.slice(from, index);
      from = index + 1;
    }
  }
  return result + text.slice(from);
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

/**
 * The folded label as people write it: each ` - ` as `-` (`core i5 - 670` → `core i5-670`, `non - suited`
 * → `non-suited`) and each ` + ` as ` & ` (`suited + non - suited match` → `suited & non-suited match`);
 * null when it has neither. One pass each.
 */
export function peopleSpelling(pattern: string): string | null {
  if (!pattern.includes(" - ") && !pattern.includes(" + ")) return null;
  return pattern.replaceAll(" - ", "-").replaceAll(" + ", " & ");
}
