// A sentence about the sources themselves ("The passage covers two bridges", "However, the text gives no
// opening hours") describes what they hold, in words of its own ("information", "details", "topics"), not a
// fact of the world: word support is the wrong test for it (docs/matching.md#answers).

// A reference to the text being answered from, with its determiner: "the passage", "this article", "the
// provided text". Whitespace is bounded so that the pattern stays linear on any input. ASCII only, without
// the `u` flag: every clause of an answer is scanned for it, and case-insensitive Unicode matching costs
// about ten times as much per character.
const SOURCE_REFERENCE =
  /\b(?:the|this|provided|given)[ \t]{1,4}(?:passage|article|text|document|excerpt|summary|source)s?\b/i;

// What opens a reported proposition, which states a fact and is checked as one: "according to the article",
// a reporting verb ("the article says revenue doubled"), or "that" / "how" ("the passage explains how …").
const PROPOSITION_FRAME =
  /\baccording[ \t]{1,4}to[ \t]{1,4}(?:the|this)[ \t]{1,4}\p{L}+|\b(?:says?|said|states?|stated|reports?|reported|claims?|claimed|notes?|noted|explains?|explained|shows?|showed|shown|reveals?|revealed|confirms?|confirmed|suggests?|suggested|indicates?|indicated|adds?|added|writes?|wrote|argues?|argued|tells?|told|finds?|found|that|how)\b/giu;

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
  let proposition = 0;
  for (const frame of text.matchAll(PROPOSITION_FRAME)) proposition = frame.index + frame[0].length;
  const rest = text.slice(proposition);
  const reference = SOURCE_REFERENCE.exec(rest);
  if (reference === null) return false;
  let before = 0;
  for (const _ of rest.slice(0, reference.index).matchAll(WORD)) {
    if (++before > MAX_WORDS_BEFORE_REFERENCE) return false;
  }
  return true;
}
