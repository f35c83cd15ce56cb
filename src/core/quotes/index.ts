export {
  expectQuotes,
  findQuote,
  quoteSearchSteps,
  searchesAtOnce,
  unsearchedQuoteChars,
} from "./find-quote.js";
