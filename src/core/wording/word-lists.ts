// Every word list of the wording, once: how people write about tables in English. Folded (lower case)
// words; each list says what its words do to a number or a column. Like chrono's one word list per
// language, a rule reads these lists and never spells its own.

/** Words of a list, from one space-separated line. */
const words = (line: string): ReadonlySet<string> => new Set(line.split(" "));

/** The main verbs that state a value (R16): `the serial number … is 68056`. */
export const COPULAS = words("is was were are had has");

/** Relative pronouns and the existential `there`: a copula after one is about another noun (R16). */
export const RELATIVES = words("who that which there");

/** Words that open a modifier after a subject's head noun (R16): `the batch code of the kiln`. */
export const POST_MODIFIERS = words("of for in at on when where with that which against during");

/** Words that may stand between a column and its number with the number still beside it (R3, R8). */
export const LINKS = words("was is of on were in at for the");

/**
 * Words that set a date as the claim's circumstance (R8): `on may 3 , 2021`, `the september 21
 * match`; the empty word is a date that opens the claim.
 */
export const CIRCUMSTANCE = new Set([
  ...words("on since from until before after by dated the in of for at during"),
  "",
]);

/** Month names and their abbreviations (R7, R8, R18). */
export const MONTHS = words(
  "january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec",
);

/** Words that, right after a number, make it a difference or a count (R11): `2 more`, `won 3 times`. */
export const COUNT_WORDS = words("more less fewer higher lower greater larger smaller bigger times");

/**
 * Comparatives that, within a few words after a number and before `than`, make it the difference of two
 * rows (R46): `4 seconds faster than`, `2 more points than`.
 */
export const COMPARATIVES = words(
  "more less fewer higher lower greater larger smaller bigger faster slower better worse earlier later longer shorter older younger",
);

/** Bound words (R12): `over 8`, `above 8` (the cell is greater), `under 8`, `below 8` (smaller). */
export const ABOVE = words("over above exceeding");
export const BELOW = words("under below");
/** The first word of `… than 8` bounds (R12): `more than 8` (greater), `less than 8` (smaller). */
export const MORE = words("more greater larger higher bigger");
export const LESS = words("less fewer smaller lower");

/** Ordinal suffixes after digits: `17th`, `1st`. */
export const ORDINAL_SUFFIXES = words("st nd rd th");

/**
 * Abbreviations and irregular forms seen in headers and in people's wording, as the header stem they
 * stand for (R5). Deterministic and small on purpose: a word not listed here is only stemmed.
 */
export const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ["pts", "point"],
  ["pt", "point"],
  ["no.", "number"],
  ["num", "number"],
  ["#", "number"],
  ["gp", "gam play"],
  ["att", "attend"],
  ["avg", "averag"],
  ["ave", "averag"],
  ["pct", "percent"],
  ["yds", "yard"],
  ["yd", "yard"],
  ["pos", "position"],
  ["won", "win"],
  ["pld", "play"],
  ["apps", "appear"],
  ["pop", "population"],
]);
