// The playground's screens; main.ts wires them to the page.
export { bindApiKeyField } from "./api-key-field.js";
export { createAskView } from "./ask-view.js";
export { createCheckView } from "./check-view.js";
export { createEvalView } from "./eval-view.js";
export { createExtractView } from "./extract-view.js";
export { createSourcesPanel } from "./sources-panel.js";
