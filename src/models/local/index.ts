export { createLocalModel } from "./local-model.js";
export { runStepsYielding } from "./run-steps.js";
