import { JSONParser } from "@streamparser/json";

/** Takes a model's `{"claims": [...]}` output piece by piece. */
export interface ClaimStreamReader {
  /** The next piece of the model's text; any claim whose value it completes is handed over at once. */
  push(text: string): void;
}

/**
 * Reads `{"claims": [...]}` while it is written and calls `onItem` with each element of the top-level
 * `claims` array (with its index) as soon as the element is complete: an object at its closing brace.
 * Text before the first `{` (a preamble, a ```json fence) is skipped, as parseModelJson skips it; after the
 * top-level object closes, or at the first syntax error, the rest is ignored: the whole reply, parsed once it
 * has all arrived, is what counts. Parsing is @streamparser/json's, O(length of text); with `keepStack` off
 * a handed-over element is not kept.
 */
export function createClaimStreamReader(onItem: (item: unknown, index: number) => void): ClaimStreamReader {
  let started = false;
  /** The start of the text before the object, to tell a reply that opens with `[`. */
  let seenText = "";
  let stopped = false;
  let expected = 0;
  const parser = new JSONParser({ paths: ["$.claims.*"], keepStack: false });
  parser.onValue = ({ value, key }) => {
    if (stopped) return;
    // A second "claims" key restarts the indexes; JSON.parse keeps the last array, so stop guessing here.
    if (key !== expected) {
      stopped = true;
      return;
    }
    expected += 1;
    onItem(value, key);
  };
  parser.onError = () => {
    stopped = true;
  };
  parser.onEnd = () => {
    stopped = true;
  };
  return {
    push(text) {
      if (stopped || text === "") return;
      let piece = text;
      if (!started) {
        // A reply that is a JSON array parses whole as that array, which is not the expected object.
        if (piece.trimStart().startsWith("[") && seenText.trim() === "") {
          stopped = true;
          return;
        }
        seenText += piece.slice(0, 100);
        const start = piece.indexOf("{");
        if (start < 0) return;
        started = true;
        piece = piece.slice(start);
      }
      parser.write(piece);
    },
  };
}
