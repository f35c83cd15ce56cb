import type { StepCounter } from "../step-counter.js";
import { isWhitespaceChar } from "../text/index.js";

/**
 * A text with every whitespace run read as one space, and where each of its code units came from: strict
 * matching compares collapsed texts, so "any run matches any run" becomes plain equality.
 */
export interface CollapsedText {
  text: string;
  /** `origin[k]` is the index in the original text of collapsed unit `k` (a run's first unit); null when the two are the same. */
  origin: Int32Array | null;
}

// The same characters as isWhitespaceChar: `\s` reads every code unit alike with or without the `u` flag.
const WHITESPACE_RUN = /\s+/g;

/** Collapses each whitespace run of `text` to one space, in one pass. */
export function collapseWhitespace(text: string, counter?: StepCounter): CollapsedText {
  if (counter !== undefined) counter.steps += text.length;
  const collapsed = text.replace(WHITESPACE_RUN, " ");
  // Every run a single unit: positions line up, only `\n` and the like became spaces.
  if (collapsed.length === text.length) return { text: collapsed, origin: null };
  const origin = new Int32Array(collapsed.length);
  let at = 0;
  let inRun = false;
  for (let index = 0; index < text.length; index += 1) {
    if (isWhitespaceChar(text.charCodeAt(index))) {
      if (inRun) continue;
      inRun = true;
    } else {
      inRun = false;
    }
    origin[at] = index;
    at += 1;
  }
  return { text: collapsed, origin };
}
