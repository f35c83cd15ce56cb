// Text primitives of the core, once: characters (word/whitespace classes, folding, surrogates), lenient
// tokens (the units lenient matching and the number checks compare) and words (the search terms of the local
// model: UAX #29 word rules, CJK bigrams). Tokens and words differ on purpose (`don't` is one word but two
// tokens); both live here so that nothing else tokenizes text on its own.
export {
  CharacterClass,
  codePointAt,
  codePointBefore,
  hasDecimalDigit,
  isWhitespaceChar,
  isWordChar,
  splitsSurrogatePair,
  wordEnd,
} from "./characters.js";
export { isStopWord, rankingStem, singularStem } from "./content-words.js";
export { firstOccurrencesOfIds } from "./first-occurrences.js";
export { searchIds, searchString } from "./linear-search.js";
export { forEachLenientToken, type LenientToken, tokenizeLenient } from "./tokens.js";
export {
  foldWord,
  forEachWord,
  hasUnspacedScript,
  PairWords,
  splitWords,
  UNSPACED_STEPS_PER_CHAR,
  wordSteps,
} from "./words.js";
