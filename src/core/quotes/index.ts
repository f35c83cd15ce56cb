export {
  BATCH_QUOTE_CHARS,
  expectQuotes,
  findQuote,
  quoteSearchSteps,
  searchesAtOnce,
  unsearchedQuoteChars,
} from "./find-quote.js";
