export { codePointBefore, isWhitespaceChar, isWordChar, splitsSurrogatePair, wordEnd } from "./characters.js";
export { searchIds, searchString } from "./linear-search.js";
export { type LenientToken, tokenizeLenient } from "./tokens.js";
export { foldWord, forEachWord, splitWords } from "./words.js";
