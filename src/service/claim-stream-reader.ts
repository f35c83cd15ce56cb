import { JSONParser } from "@streamparser/json";
import type { CandidateClaim } from "../core/index.js";
import { createJsonShapeScanner } from "./model-json.js";
import { readClaimItem, readClaimsOutput, type ShapeCheck } from "./model-output.js";
import type { ReplyReading } from "./structured-output.js";

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
 * a handed-over element is not kept. Each piece is first scanned for its shape (`createJsonShapeScanner`): at nesting
 * deeper than `MAX_MODEL_JSON_DEPTH` or too many values, the reader stops where they begin, before the
 * parser sees them (the whole reply is refused for the same reason).
 */
export function createClaimStreamReader(onItem: (item: unknown, index: number) => void): ClaimStreamReader {
  let started = false;
  /** The start of the text before the object, to tell a reply that opens with `[`. */
  let seenText = "";
  let stopped = false;
  let expected = 0;
  const shape = createJsonShapeScanner();
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
      if (shape.push(piece) !== undefined) {
        // What came before the refusal is read as it would be in smaller pieces.
        parser.write(piece.slice(0, shape.refusedAt));
        stopped = true;
        return;
      }
      parser.write(piece);
    },
  };
}

/**
 * A stream reader that hands over each element of `claims` read as a claim, up to the first element of the
 * wrong shape (the whole reply then fails the same check and is re-asked).
 */
export function createStreamedClaims(onClaim: (claim: CandidateClaim) => void): ClaimStreamReader {
  let usable = true;
  return createClaimStreamReader((item, index) => {
    if (!usable) return;
    const claim = readClaimItem(item, index);
    if (claim.ok) onClaim(claim.value);
    else usable = false;
  });
}

/** Whether two candidate claims say the same thing. */
export function sameClaim(a: CandidateClaim, b: CandidateClaim | undefined): boolean {
  return b !== undefined && a.claim === b.claim && a.quote === b.quote && a.source === b.source;
}

/**
 * `readClaimsOutput`, refusing a reply whose claims, read as a stream reads them (from the first `{`, see
 * `createClaimStreamReader`), do not begin its claims: a repeated top-level `"claims"` key (JSON.parse keeps
 * the last array, a stream has sent the first), or a broken object before the JSON that was read. Streamed
 * or not, such a reply is re-asked, so streamed events never name a claim the result does not hold. O(n):
 * the reply is read again only when its reading is not its first object (`readsFirstObject`).
 */
export function readClaimsReply(value: unknown, reading: ReplyReading): ShapeCheck<CandidateClaim[]> {
  const shaped = readClaimsOutput(value);
  if (!shaped.ok || reading.readsFirstObject) return shaped;
  const streamed: CandidateClaim[] = [];
  createStreamedClaims((claim) => streamed.push(claim)).push(reading.content);
  if (streamed.every((claim, index) => sameClaim(claim, shaped.value[index]))) return shaped;
  return {
    ok: false,
    error:
      'the claims its first JSON object begins with are not the claims it holds; send one JSON object with one "claims" key',
  };
}
