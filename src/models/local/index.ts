export { createLocalModel } from "./local-model.js";
