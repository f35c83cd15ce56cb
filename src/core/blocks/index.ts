export { type Block, type Span, splitBlocks } from "./blocks.js";
export { type Sentence, splitSentences } from "./sentences.js";
