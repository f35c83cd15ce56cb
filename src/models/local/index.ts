export { createLocalModel } from "./local-model.js";
export { nextTurn, runStepsYielding } from "./run-steps.js";
