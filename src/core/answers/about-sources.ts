// A sentence about the sources themselves ("The passage covers two bridges", "However, the text gives no
// opening hours") describes what they hold, in words of its own ("information", "details", "topics"), not a
// fact of the world: word support is the wrong test for it (docs/matching.md#answers).

// A reference to the text being answered from, with its determiner: "the passage", "this article", "the
// provided text". Whitespace is bounded so that the pattern stays linear on any input. ASCII only, without
// the `u` flag: every clause of an answer is scanned for it, and case-insensitive Unicode matching costs
// about ten times as much per character.
const SOURCE_REFERENCE =
  /\b(?:the|this|provided|given)[ \t]{1,4}(?:passage|article|text|document|excerpt|summary|source)s?\b/i;

// What opens a reported proposition, which states a fact and is checked as one: a reporting verb ("the
// article says revenue doubled"), "that" / "how" ("the passage explains how …"), or "according to the
// article". Words looked up in a set, not one alternation regex: a word list is linear to scan and to audit.
const FRAME_WORDS = new Set(
  [
    ["say", "says", "said"],
    ["state", "states", "stated"],
    ["report", "reports", "reported"],
    ["claim", "claims", "claimed"],
    ["note", "notes", "noted"],
    ["explain", "explains", "explained"],
    ["show", "shows", "showed", "shown"],
    ["reveal", "reveals", "revealed"],
    ["confirm", "confirms", "confirmed"],
    ["suggest", "suggests", "suggested"],
    ["indicate", "indicates", "indicated"],
    ["add", "adds", "added"],
    ["write", "writes", "wrote"],
    ["argue", "argues", "argued"],
    ["tell", "tells", "told"],
    ["find", "finds", "found"],
    ["that", "how"],
  ].flat(),
);
/** What follows "according" in "according to the|this X", X read as letters. */
const ACCORDING_TO = /[ \t]{1,4}to[ \t]{1,4}(?:the|this)[ \t]{1,4}\p{L}+/iuy;
/** Words as `\b` reads them: ASCII letters, digits and `_`. */
const FRAME_WORD = /\w+/g;

const WORD = /[\p{L}\p{N}]+/gu;

/** Words before a source reference in the subject of a sentence about the sources ("However, the passage …"). */
const MAX_WORDS_BEFORE_REFERENCE = 1;

/**
 * True when `text` (a clause) speaks about the sources rather than about the world: after the last
 * proposition frame it holds, if any, its subject is a reference to the source ("The passage offers
 * details on two companies", "It is worth noting that the excerpt seems to hold only …"). A
 * proposition it reports ("The article states that revenue doubled", "According to the article, revenue
 * doubled") is a fact and is not about the sources. O(text).
 */
export function isAboutSources(text: string): boolean {
  // Most clauses name no source: one scan for a reference settles them before any frame is looked for.
  if (!SOURCE_REFERENCE.test(text)) return false;
  const rest = text.slice(propositionEnd(text));
  const reference = SOURCE_REFERENCE.exec(rest);
  if (reference === null) return false;
  let before = 0;
  for (const _ of rest.slice(0, reference.index).matchAll(WORD)) {
    if (++before > MAX_WORDS_BEFORE_REFERENCE) return false;
  }
  return true;
}

/**
 * Where the last proposition frame of `text` ends (0 when it has none): after its reporting word, or after
 * the letters of X in "according to the X". Words compared in lower case. O(text): each word is read once,
 * and "according" reads on over at most 14 spaces and words and the letters of X, which are skipped after.
 */
function propositionEnd(text: string): number {
  let end = 0;
  for (const word of text.matchAll(FRAME_WORD)) {
    // A word inside "according to the X" is part of that frame, as the alternation regex read it.
    if (word.index < end) continue;
    const lower = word[0].toLowerCase();
    if (FRAME_WORDS.has(lower)) end = word.index + word[0].length;
    else if (lower === "according") {
      ACCORDING_TO.lastIndex = word.index + word[0].length;
      const rest = ACCORDING_TO.exec(text);
      if (rest !== null) end = rest.index + rest[0].length;
    }
  }
  return end;
}
