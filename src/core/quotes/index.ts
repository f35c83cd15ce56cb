export {
  expectQuotes,
  findQuote,
  searchesAtOnce,
  unsearchedQuoteChars,
} from "./find-quote.js";
