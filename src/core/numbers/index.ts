export { type LineNumbers, numbersOnLines } from "./lines.js";
export { numberKey, scaledNumberKey, smallWholeNumber } from "./number-key.js";
export { DECADE, forEachScaledNumber, forEachScaledNumberSpan } from "./scaled.js";
export {
  type FoundNumber,
  findNumberSpans,
  findNumbers,
  NumberSpans,
  nextNumberStart,
  numberEnd,
} from "./scan.js";
export { checkSourceNumbers, explainQuoteNumbers, explainSourceNumbers } from "./source-check.js";
