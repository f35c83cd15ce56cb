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
 * Folds text for label matching: lower case, and every whitespace run as one space. Digits, `.` and `,`
 * are kept in place, so the numbers of a folded claim are the claim's numbers.
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
