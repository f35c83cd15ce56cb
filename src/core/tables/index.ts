export { checkRowNumbers } from "./row-check.js";
