export {
  BATCH_QUOTE_CHARS,
  expectQuotes,
  findQuote,
  quotePassesAtOnce,
  quoteSearchSteps,
  searchesAtOnce,
  unsearchedQuoteChars,
} from "./find-quote.js";
