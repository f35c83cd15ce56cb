// Whitespace that is not a lone ASCII space: only a text holding some needs the collapsing replace.
const NOT_PLAIN_SPACE = /\s\s|[^\S ]/;

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
  return NOT_PLAIN_SPACE.test(folded) ? folded.replace(/\s+/g, " ") : folded;
}
