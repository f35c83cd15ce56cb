export { type Block, type BlockPart, blockParts, type Span, splitBlocks } from "./blocks.js";
export { hasSentenceEndInside, LONG_LINE, type Sentence, sentencesOf, splitSentences } from "./sentences.js";
