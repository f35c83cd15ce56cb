import { JSONParser } from "@streamparser/json";
import type { CandidateClaim } from "../core/index.js";
import { CLAIM_READ_SLICE_CHARS } from "../limits.js";
import { type Steps, splitsSurrogatePair } from "../util.js";
import { createJsonShapeScanner } from "./model-json.js";
import { readClaimItem, readClaimsOutput, type ShapeCheck } from "./model-output.js";
import type { ReplyReading } from "./structured-output.js";

/** Takes a model's `{"claims": [...]}` output piece by piece, and reads it a slice at a time. */
export interface ClaimStreamReader {
  /** Queues the next piece of the model's text: O(1), nothing is read until `read`. */
  push(text: string): void;
  /**
   * Reads at most `chars` characters of the queued text (`CLAIM_READ_SLICE_CHARS` by default), in order,
   * handing over every claim whose value they complete; returns whether queued text is left to read.
   */
  read(chars?: number): boolean;
  /** Whether text is queued and not read yet (none once the reader has stopped). */
  readonly queued: boolean;
}

/**
 * Reads `{"claims": [...]}` while it is written and calls `onItem` with each element of the top-level
 * `claims` array (with its index) as soon as the element is complete: an object at its closing brace.
 * Text before the first `{` (a preamble, a ```json fence) is skipped, as parseModelJson skips it; after the
 * top-level object closes, or at the first syntax error, the rest is ignored: the whole reply, parsed once it
 * has all arrived, is what counts. Parsing is @streamparser/json's, O(length of text); with `keepStack` off
 * a handed-over element is not kept. Each piece is first scanned for its shape (`createJsonShapeScanner`): at nesting
 * deeper than `MAX_MODEL_JSON_DEPTH` or too many values, the reader stops where they begin, before the
 * parser sees them (the whole reply is refused for the same reason). Pieces are queued by `push` and read by
 * `read`, a slice at a time: however the text is cut, the same elements are handed over in the same order, and
 * one `read` costs O(its slice) whatever the size of the piece it takes its slice from.
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
  /** Queued pieces from `head` on; the first is read from `offset`. */
  let queue: string[] = [];
  let head = 0;
  let offset = 0;

  const readPiece = (text: string) => {
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
  };

  return {
    push(text) {
      if (!stopped && text !== "") queue.push(text);
    },
    get queued() {
      return !stopped && head < queue.length;
    },
    read(chars = CLAIM_READ_SLICE_CHARS) {
      let budget = Math.max(1, chars);
      while (budget > 0 && head < queue.length && !stopped) {
        const piece = queue[head] as string;
        let end = Math.min(piece.length, offset + budget);
        // A surrogate pair is never cut (a slice of one character may then hold two).
        if (splitsSurrogatePair(piece, end)) end += end - offset === 1 ? 1 : -1;
        readPiece(offset === 0 && end === piece.length ? piece : piece.slice(offset, end));
        budget -= end - offset;
        offset = end;
        if (offset === piece.length) {
          queue[head] = "";
          head += 1;
          offset = 0;
        }
      }
      if (stopped || head === queue.length) {
        queue = [];
        head = 0;
        offset = 0;
        return false;
      }
      return true;
    },
  };
}

/**
 * Reads everything `reader` has queued, a slice (`CLAIM_READ_SLICE_CHARS`) a step, with a step between two
 * slices: run with turns (`runStepsYielding`), a reply of megabytes is read over as many passes of the event
 * loop.
 */
export function* readQueuedSteps(reader: ClaimStreamReader): Steps<void> {
  while (reader.read()) yield;
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
 * the reply is read again only when its reading is not its first object (`readsFirstObject`), then a slice
 * (`CLAIM_READ_SLICE_CHARS`) a step (`readQueuedSteps`).
 */
export function* readClaimsReplySteps(
  value: unknown,
  reading: ReplyReading,
): Steps<ShapeCheck<CandidateClaim[]>> {
  const shaped = readClaimsOutput(value);
  if (!shaped.ok || reading.readsFirstObject) return shaped;
  const streamed: CandidateClaim[] = [];
  const reader = createStreamedClaims((claim) => streamed.push(claim));
  reader.push(reading.content);
  yield* readQueuedSteps(reader);
  if (streamed.every((claim, index) => sameClaim(claim, shaped.value[index]))) return shaped;
  return {
    ok: false,
    error:
      'the claims its first JSON object begins with are not the claims it holds; send one JSON object with one "claims" key',
  };
}
