export { expectQuotes, findQuote } from "./find-quote.js";
