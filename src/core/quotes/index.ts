export { findQuote } from "./find-quote.js";
