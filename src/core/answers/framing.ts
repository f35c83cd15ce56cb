// What an answer says to the reader rather than about the world: chat framing ("Here's an overview.", "Let
// me know if you need anything else!", an offer or a question to the reader), bold lead-ins and headings
// written as bold lines (`**Time limit.**`), and the connecting phrases that open or join a clause
// ("Additionally,", "it's worth noting that"). None of it is looked for in the sources (docs/matching.md#answers).

import type { StepCounter } from "../step-counter.js";

// How chat framing opens. Bounded alternatives and spaces, ASCII without the `u` flag: linear and cheap.
const FRAMING_OPENER =
  /^(?:here(?:'s|’s|[ \t]{1,4}is|[ \t]{1,4}are)|below[ \t]{1,4}(?:is|are)|(?:sure|certainly|of[ \t]{1,4}course|absolutely)(?=[ \t]{0,2}[!,.:]|$)|great[ \t]{1,4}question|good[ \t]{1,4}question|let[ \t]{1,4}me|i[ \t]{1,4}hope|hope[ \t]{1,4}(?:this|that|it)|feel[ \t]{1,4}free|would[ \t]{1,4}you|do[ \t]{1,4}you[ \t]{1,4}want|want[ \t]{1,4}me|if[ \t]{1,4}you(?:'d|’d)?[ \t]{1,4}(?:need|want|like|would|have)|happy[ \t]{1,4}to|glad[ \t]{1,4}to|shall[ \t]{1,4}i|i(?:'d|’d|[ \t]{1,4}would)[ \t]{1,4}be[ \t]{1,4}happy|i[ \t]{1,4}can[ \t]{1,4}(?:also[ \t]{1,4})?help)\b/i;
const DIGIT = /\p{Nd}/u;
// Markdown emphasis and list marks before a sentence's first word.
const LEADING_MARKS = /^[\s*_>#-]{0,16}/;
// A line that is one emphasised span: `**Time limit.**`, `__Prices__:`, `*Note*`.
const EMPHASIS_ONLY =
  /^[ \t]{0,3}(?:[-*+][ \t]{1,4}|\d{1,3}[.)][ \t]{1,4})?(?:\p{Extended_Pictographic}\uFE0F?[ \t]{1,4})?(\*\*|__|\*|_)[^*_\n]{1,200}\1[ \t]{0,4}[:.]?[ \t]{0,4}$/u;

/**
 * True when a sentence with no citation marker is chat framing, not a claim: it holds no number, and it is a
 * question to the reader (ends with `?`) or opens as framing does ("Here's", "Sure", "Let me know", "Would
 * you like", "Feel free", "I hope", …). O(sentence).
 */
export function isChatFraming(sentence: string, counter?: StepCounter): boolean {
  // The sentence read for a digit and trimmed, then at most FRAMING_HEAD characters matched.
  if (counter !== undefined) counter.steps += 2 * sentence.length + FRAMING_HEAD;
  if (DIGIT.test(sentence)) return false;
  const text = sentence.trimEnd();
  if (text.endsWith("?")) return true;
  const start = LEADING_MARKS.exec(text)?.[0].length ?? 0;
  return FRAMING_OPENER.test(text.slice(start, start + FRAMING_HEAD));
}

/** Characters of a sentence's opening that FRAMING_OPENER is tried on. */
const FRAMING_HEAD = 64;

/**
 * True when `text` (a claim's span in the answer, markers blanked) is one emphasised span and nothing else: a
 * bold lead-in (`**Time limit.**` before the sentence it introduces) or a heading written in bold. O(text).
 */
export function isEmphasisOnly(text: string, counter?: StepCounter): boolean {
  // A longer text is no lead-in and is not read; a shorter one is trimmed, matched and its words counted.
  if (counter !== undefined) counter.steps += 1 + (text.length > MAX_LEAD_IN_CHARS ? 0 : 3 * text.length);
  if (text.length > MAX_LEAD_IN_CHARS || !EMPHASIS_ONLY.test(text.trim())) return false;
  // A lead-in or heading is a few words; a whole sentence in bold is still a claim.
  let words = 0;
  for (const _ of text.matchAll(WORDS)) if (++words > MAX_LEAD_IN_WORDS) return false;
  return true;
}

const WORDS = /[\p{L}\p{N}]+/gu;
const MAX_LEAD_IN_CHARS = 240;
const MAX_LEAD_IN_WORDS = 6;

// Phrases that connect clauses or frame what follows without stating anything: their words are not looked for.
const CONNECTIVES =
  /\b(?:it(?:'s|’s|[ \t]{1,4}is)[ \t]{1,4}(?:also[ \t]{1,4})?(?:worth[ \t]{1,4}(?:noting|mentioning)|important[ \t]{1,4}to[ \t]{1,4}(?:note|remember|mention))(?:[ \t]{1,4}that)?|it[ \t]{1,4}should[ \t]{1,4}be[ \t]{1,4}noted(?:[ \t]{1,4}that)?|(?:keep|bear)[ \t]{1,4}in[ \t]{1,4}mind(?:[ \t]{1,4}that)?|as[ \t]{1,4}(?:mentioned|noted)[ \t]{1,4}(?:above|earlier|before)|in[ \t]{1,4}other[ \t]{1,4}words|at[ \t]{1,4}the[ \t]{1,4}same[ \t]{1,4}time|on[ \t]{1,4}the[ \t]{1,4}other[ \t]{1,4}hand|that[ \t]{1,4}said|additionally|moreover|furthermore|notably|importantly|interestingly|in[ \t]{1,4}addition|as[ \t]{1,4}a[ \t]{1,4}result|for[ \t]{1,4}(?:example|instance)|in[ \t]{1,4}particular|in[ \t]{1,4}fact|in[ \t]{1,4}summary|to[ \t]{1,4}summari[sz]e|overall|although|nevertheless|nonetheless|consequently|meanwhile|similarly|likewise)\b/gi;

// A bold lead-in that opens a sentence and ends with its own `:` or `.` (`**Time limit:** Phones can …`).
const LEAD_IN = /^([ \t]{0,16})(\*\*|__)[^*_\n]{1,80}(?:[:.]\2|\2[ \t]{0,2}:)/;

/**
 * `text` with its connecting phrases and a bold lead-in that opens it blanked out (offsets kept), so their
 * words are not looked for. O(text).
 */
export function withoutFraming(text: string): string {
  const lead = LEAD_IN.exec(text);
  const rest = lead === null ? text : " ".repeat(lead[0].length) + text.slice(lead[0].length);
  return withoutConnectives(rest);
}

/** `text` with its connecting phrases blanked out (offsets kept), so their words are not looked for. O(text). */
export function withoutConnectives(text: string): string {
  return text.replace(CONNECTIVES, (phrase) => " ".repeat(phrase.length));
}
