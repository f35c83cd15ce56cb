import {
  type AnswerCheckOptions,
  type AnswerClaim,
  type AnswerMarkers,
  type AnswerResult,
  answerClaims,
  answerWithoutClaims,
  LONG_LINE,
  markerSteps,
  PAUSE,
  type PreparedAnswerSources,
  prepareAnswerSources,
  type Range,
  type Source,
  type StepCounter,
} from "../../core/index.js";
import { MAX_ANSWER_BEST_SPAN_CHARS, MAX_ANSWER_CLAIMS } from "../../limits.js";
import { type GenerateStream, nextTurn } from "../../models/index.js";
import { checkAnswerYielding, citationToWire, unsupportedToWire } from "../check-answer.js";
import { type CreateObserver, pacedProgress } from "../claim-events.js";
import { assembleAnswer, type CheckedPiece, readsAnswerWide } from "./assemble-answer.js";
import {
  type ClaimSpan,
  type Cut,
  type CutScan,
  type CutWatch,
  cutMayFollow,
  findCut,
  type LineBefore,
  splitsAsInWhole,
} from "./stream-cuts.js";

/** The sentence events of one prose create: a stream for each call, and the verdicts once a call is used. */
export interface SentenceEvents {
  /** The stream to give the next call; from the second call on it first reports an `attempt`. */
  nextCall(): GenerateStream;
  /**
   * The check of the used call's whole answer (the result), after reporting the claims no earlier event
   * reported: those after the last sentence checked while streaming (all of them, for a gateway that could
   * not stream). Only that rest is checked now: the result is assembled from the checks of the pieces
   * (`assembleAnswer`), deep-equal to one check of the whole answer; the whole answer is checked again only
   * when the pieces could read otherwise in it (`readsAnswerWide`, or the rest starts inside a long line
   * and could split otherwise alone: `splitsAsInWhole`), or when the stream's text is not a prefix of `answer`.
   */
  settle(answer: string, signal?: AbortSignal): Promise<AnswerResult>;
  /**
   * How the last `settle` came to its result: assembled from the pieces, or the whole answer checked, and
   * how many characters it checked (the rest after the last checked piece, plus the whole answer if checked).
   */
  readonly settled: { path: "assembled" | "whole"; checkedChars: number } | undefined;
  /** Resolves once no streamed check is running or scheduled: what `settle` waits for first. */
  idle(): Promise<void>;
}

/**
 * Told of each piece of the answer once it is checked, in answer order, the pieces together the whole answer:
 * the sentences closed while streaming, then, when the model has finished, the rest (checked on its own).
 */
export type PieceListener = (piece: string, checked: AnswerResult) => void;

/**
 * Streamed checks together may read at most this many times the characters of the sources and the answer so
 * far: each check indexes the sources anew, so with large sources the sentences are checked in fewer,
 * larger pieces (and whatever is left once the budget is spent, at the end). Linear in sources plus answer.
 */
export const STREAM_CHECK_WORK_FACTOR = 8;

// Once a place where the stream could be cut has arrived (`cutMayFollow`: a line break, or the first letter of
// a sentence after a sentence end), the text not yet checked is split (by the answer's own splitter) each time
// it has grown by a quarter since the last split: a closed sentence is checked once the next one has begun,
// and each split reads at most five times what arrived since the one before, so all the splitting of an answer
// reads it a bounded number of times, however it is chunked.
// A split also waits for MIN_SPLIT_GROWTH new characters, so that a stream of tiny pieces after a cut pays each
// split's fixed cost at most once per that many characters.
// A line break: what a stream waiting on its line (`CutScan.waitsForBreak`) waits for before splitting again.
const LINE_BREAK = /[\n\r]/u;
const REGROWTH = 4;
const MIN_SPLIT_GROWTH = 16;
// Steps of splitting between two turns of the event loop: the check's own slice (ANSWER_SLICE_CHARS
// characters at 10 steps each).
const SPLIT_SLICE_STEPS = 200_000;

/**
 * Checks the sentences of a prose answer as the model's stream closes them: the text is buffered, and as it
 * grows the text not yet checked is split and cut where the parts split as the whole answer does
 * (`findCut`: a line's start, or a sure sentence break inside a line); the part before the cut is checked
 * (`checkAnswer` on that piece of the answer, with its ranges moved to the whole answer's) and reported in
 * answer order, a `claim` per citation and an `unsupported` per dropped sentence. A sentence's verdict
 * depends only on it, the sources and the question, so it is the verdict of the whole answer's check. One
 * check runs at a time; sentences closed meanwhile are checked together. The splitting runs in slices with
 * turns of the event loop between them; with `counter`, its steps are added to it, and with `checkCounter`
 * the steps of the checks (tests).
 */
export function createSentenceEvents(
  sources: readonly Source[] | PreparedAnswerSources,
  options: AnswerCheckOptions,
  observer: CreateObserver,
  signal?: AbortSignal,
  onPiece?: PieceListener,
  counter?: StepCounter,
  checkCounter?: StepCounter,
): SentenceEvents {
  // Prepared once for every check of the stream (or by the caller, for its own checks too): each source's
  // readable form and support index are then made once, not per piece.
  const prepared = "prepared" in sources ? sources : prepareAnswerSources(sources);
  const sourceChars = prepared.prepared.reduce((total, source) => total + source.text.length, 0);
  const tally = counter ?? { steps: 0 };
  let calls = 0;
  let buffer = "";
  /** The answer's offset up to which sentences were checked and reported: where the next piece starts. */
  let reported = 0;
  /** The line the next piece starts in. */
  let lineBefore: LineBefore = { chars: 0, plainHead: true };
  let work = 0;
  /** Claims and clauses of the pieces checked so far: they count against the answer's cap together. */
  let clausesChecked = 0;
  /** Whether something that may close a sentence arrived after the last check. */
  let armed = false;
  /** How the text read so far ends, for `cutMayFollow`. */
  const watch: CutWatch = { state: 0 };
  /**
   * Whether the last split found no cut and no claim start can be one before a line break arrives: the open
   * text is one line with a sure disagreement in it (`CutScan`). Splitting the growing line again would only
   * find no cut again, each time reading all of it: an answer of one long line was split about five times over.
   */
  let waitsForBreak = false;
  let splitAt = 0;
  let running: Promise<void> | undefined;
  let again = false;
  let failure: unknown;
  /** The pieces checked so far, and what their checks judged and kept and the best spans they listed. */
  let pieces: StreamedPiece[] = [];
  let claimTally = { judged: 0, kept: 0 };
  let bestSpanBudget = { chars: MAX_ANSWER_BEST_SPAN_CHARS };
  let pieceOptions: AnswerCheckOptions = options;
  let settled: SentenceEvents["settled"];

  const schedule = (): void => {
    if (running !== undefined) {
      again = true;
      return;
    }
    // The loop's last look at `again` and the reset of `running` run in one go: a call in between would be lost.
    running = (async () => {
      try {
        do {
          again = false;
          await checkClosed();
        } while (again);
      } catch (error) {
        failure ??= error;
      } finally {
        running = undefined;
      }
    })();
  };

  const checkClosed = async (): Promise<void> => {
    // After a failure (a model's answer over the claim cap) nothing more is checked or reported.
    if (failure !== undefined || waitsForBreak) return;
    const answer = buffer;
    const open = answer.slice(reported);
    const budget = STREAM_CHECK_WORK_FACTOR * (sourceChars + answer.length);
    if (work + open.length + sourceChars > budget) return;
    work += open.length;
    splitAt = answer.length;
    const split = await splitYielding(open, MAX_ANSWER_CLAIMS - clausesChecked, tally, signal);
    // Past the cap, the piece up to the last claim read fails its check (the model's answer is too long).
    const last = split.claims.at(-1);
    let cut: Cut | undefined =
      split.overCap && last !== undefined ? { at: last.end, next: lineBefore } : undefined;
    const scan: CutScan = { waitsForBreak: false };
    if (!split.overCap) {
      const cuts = findCut(open, split.claims, split.hidden, lineBefore, tally, scan);
      for (let step = cuts.next(); ; step = cuts.next()) {
        if (step.done === true) {
          cut = step.value;
          break;
        }
        await nextTurn();
        signal?.throwIfAborted();
      }
    }
    if (cut === undefined || cut.at === 0) {
      // Unless a line break came while splitting.
      waitsForBreak = scan.waitsForBreak && !LINE_BREAK.test(buffer.slice(splitAt));
      return;
    }
    const piece = open.slice(0, cut.at);
    // The piece's claims as the split read them: both parts split as the whole does, so they are the piece's own.
    const after = split.claims.findIndex((claim) => claim.start >= cut.at);
    const inPiece = after < 0 ? split.claims.length : after;
    const claims = split.read?.slice(0, inPiece);
    if (inPiece === 0) {
      // No claim before the cut: nothing to check or report (a fence, headings, blank lines).
      onPiece?.(piece, { text: piece, citations: [], unsupported: [], partial: [], coverage: 0 });
      lineBefore = cut.next;
      reported += cut.at;
      armed = rearm();
      return;
    }
    work += sourceChars + piece.length;
    // The pieces of one answer share its claim cap: a model's answer of too many fails as it streams.
    const clauseTally = { clauses: 0 };
    const before: PieceStart = {
      judged: claimTally.judged,
      kept: claimTally.kept,
      spanChars: bestSpanBudget.chars,
      clauses: clausesChecked,
      line: lineBefore,
    };
    // The piece's text (the answer without its dropped sentences) is cut only for `onPiece`: the whole answer's is
    // cut once, when the pieces are assembled (`assembleAnswer`), not once for each piece and again for the whole.
    const withoutText = onPiece === undefined;
    const checked = await checkAnswerYielding(
      prepared,
      piece,
      { ...pieceOptions, clauseTally, claims, withoutText },
      signal,
      undefined,
      { author: "model", clausesBefore: clausesChecked, counter: checkCounter },
    );
    clausesChecked += clauseTally.clauses;
    pieces.push({ offset: reported, chars: cut.at, result: checked, before, withoutText });
    await report(checked, reported, answer);
    onPiece?.(piece, checked);
    lineBefore = cut.next;
    reported += cut.at;
    armed = rearm();
  };

  // Whether the text after the last cut holds a place to cut at, read from the cut on.
  const rearm = (): boolean => {
    watch.state = 0;
    return cutMayFollow(watch, buffer.slice(reported));
  };

  // The events of `result` (its ranges moved by `offset`) that start at `from` or after, in answer order, each
  // put in the wire's shape as it is sent, in groups of EVENTS_PER_TURN with a turn of the event loop between
  // them: each costs its conversion, offsets, JSON and a write, and an answer of many clauses has thousands.
  // Each waits until the caller has taken the events before it (`drained`).
  // `answer`: the text the ranges count into (the stream so far, or the whole answer), for their `offsets`.
  const report = async (result: AnswerResult, offset: number, answer: string, from = 0): Promise<void> => {
    // The citations and dropped claims merged by their start in the answer (as a stable sort of the citations
    // then the dropped claims would order them: each list in its order by start, a citation first on a tie),
    // those starting before `from` skipped. Each list is in answer order already: it is sorted only if not.
    const citations = byStart(result.citations);
    const unsupported = byStart(result.unsupported);
    let claimAt = 0;
    let droppedAt = 0;
    while (claimAt < citations.length && startOf(citations[claimAt]) + offset < from) claimAt++;
    while (droppedAt < unsupported.length && startOf(unsupported[droppedAt]) + offset < from) droppedAt++;
    // A report's events, paced as every create's claim events are (a turn every EVENTS_PER_TURN, each held while
    // the caller has not taken what was sent). An event sent at once is not awaited: the next follows in the same
    // go, not after a microtask of its own.
    const send = pacedProgress(observer, signal);
    while (claimAt < citations.length || droppedAt < unsupported.length) {
      const citation = citations[claimAt];
      const entry = unsupported[droppedAt];
      let wait: Promise<void> | undefined;
      if (citation !== undefined && (entry === undefined || startOf(citation) <= startOf(entry))) {
        claimAt++;
        wait = send({ type: "claim", citation: citationToWire(citation, offset), answer });
      } else if (entry !== undefined) {
        droppedAt++;
        wait = send({ type: "unsupported", unsupported: unsupportedToWire(entry, offset), answer });
      }
      if (wait !== undefined) await wait;
    }
  };

  return {
    nextCall() {
      calls += 1;
      if (calls > 1) observer.progress({ type: "attempt", attempt: calls });
      buffer = "";
      reported = 0;
      lineBefore = { chars: 0, plainHead: true };
      work = 0;
      clausesChecked = 0;
      armed = false;
      watch.state = 0;
      waitsForBreak = false;
      splitAt = 0;
      pieces = [];
      claimTally = { judged: 0, kept: 0 };
      bestSpanBudget = { chars: MAX_ANSWER_BEST_SPAN_CHARS };
      pieceOptions = { ...options, claimTally, bestSpanBudget };
      return {
        onOpen: () => observer.open(),
        onText: (text) => {
          buffer += text;
          // Once armed, the text is read again from the next cut (`rearm`): no need to follow it here.
          if (!armed) armed = cutMayFollow(watch, text);
          if (waitsForBreak && LINE_BREAK.test(text)) waitsForBreak = false;
          const growth = buffer.length - splitAt;
          if (
            armed &&
            !waitsForBreak &&
            growth >= MIN_SPLIT_GROWTH &&
            growth * REGROWTH >= buffer.length - reported
          )
            schedule();
        },
      };
    },
    async idle() {
      while (running !== undefined) await running;
    },
    get settled() {
      return settled;
    },
    async settle(answer, settleSignal) {
      while (running !== undefined) await running;
      if (failure !== undefined) throw failure;
      const wholeCheck = () =>
        checkAnswerYielding(prepared, answer, options, settleSignal ?? signal, undefined, {
          author: "model",
          counter: checkCounter,
        });
      // The stream's text is a prefix of the answer; should it not be, the whole answer is checked and reported.
      if (!answer.startsWith(buffer)) {
        const result = await wholeCheck();
        settled = { path: "whole", checkedChars: answer.length };
        await report(result, 0, answer);
        onPiece?.(answer, result);
        return result;
      }
      const from = reported;
      // The rest starts where it splits as in the whole answer: a rest inside a long line that could split
      // otherwise alone (`findCut` then cut nothing after that line) takes back the pieces of that line until
      // it starts at the line's start or its part of the line is over LONG_LINE characters too.
      let start = from;
      if (!splitsAsInWhole(answer.slice(from), lineBefore)) {
        const lineEnd = endOfLine(answer, from);
        let line = lineBefore;
        while (line.chars > 0 && lineEnd - start <= LONG_LINE) {
          const piece = pieces.pop();
          if (piece?.before === undefined) {
            // Back to the answer's start: nothing is assembled but the whole answer's check.
            start = 0;
            pieces = [];
            claimTally.judged = 0;
            claimTally.kept = 0;
            bestSpanBudget.chars = MAX_ANSWER_BEST_SPAN_CHARS;
            clausesChecked = 0;
            break;
          }
          start = piece.offset;
          line = piece.before.line;
          claimTally.judged = piece.before.judged;
          claimTally.kept = piece.before.kept;
          bestSpanBudget.chars = piece.before.spanChars;
          clausesChecked = piece.before.clauses;
        }
      }
      const rest = answer.slice(start);
      if (rest !== "") {
        const checked = await checkAnswerYielding(
          prepared,
          rest,
          pieceOptions,
          settleSignal ?? signal,
          undefined,
          {
            author: "model",
            clausesBefore: clausesChecked,
            counter: checkCounter,
          },
        );
        pieces.push({ offset: start, chars: rest.length, result: checked, before: undefined });
      }
      const last = rest === "" ? undefined : pieces.at(-1);
      let result: AnswerResult;
      if (readsAnswerWide(answer, pieces)) {
        result = await wholeCheck();
        settled = { path: "whole", checkedChars: rest.length + answer.length };
        await report(result, 0, answer, from);
      } else {
        result = assembleAnswer(answer, pieces, claimTally);
        settled = { path: "assembled", checkedChars: rest.length };
        if (last !== undefined) await report(last.result, start, answer, from);
      }
      if (last !== undefined && from < answer.length)
        onPiece?.(answer.slice(from), tailOf(last.result, from - start, answer.slice(from)));
      return result;
    },
  };
}

/** What the stream's tallies and line were when a piece's check began: where they go back to without it. */
interface PieceStart {
  judged: number;
  kept: number;
  spanChars: number;
  clauses: number;
  line: LineBefore;
}

/** Where an entry starts in the text its check read. */
const startOf = (entry: { answerRange: Range } | undefined): number =>
  (entry as { answerRange: Range }).answerRange[0];

/** `entries` in order of their start (stable), as they are when already so. O(n), or O(n log n) when not. */
function byStart<Entry extends { answerRange: Range }>(entries: readonly Entry[]): readonly Entry[] {
  for (let at = 1; at < entries.length; at++)
    if (startOf(entries[at]) < startOf(entries[at - 1]))
      return [...entries].sort((a, b) => startOf(a) - startOf(b));
  return entries;
}

/** A piece checked while streaming (`before` set) or at the end. */
type StreamedPiece = CheckedPiece & { before: PieceStart | undefined };

/** Where the line holding `at` ends: its `\n` or `\r`, or the text's end. O(line). */
function endOfLine(text: string, at: number): number {
  let end = at;
  while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
  return end;
}

/**
 * The part of a piece's check from `cut` on, as the check of `text` (the piece from `cut`): its entries that
 * start there or after, moved by `cut`, and its text without their dropped sentences. O(piece).
 */
function tailOf(result: AnswerResult, cut: number, text: string): AnswerResult {
  if (cut === 0) return result;
  const moved = <T extends { answerRange: Range }>(entries: readonly T[]): T[] =>
    entries
      .filter((entry) => entry.answerRange[0] >= cut)
      .map((entry) => ({ ...entry, answerRange: [entry.answerRange[0] - cut, entry.answerRange[1] - cut] }));
  const unsupported = moved(result.unsupported);
  return {
    text: answerWithoutClaims(
      text,
      unsupported.map((entry) => entry.answerRange),
    ),
    citations: moved(result.citations),
    unsupported,
    partial: moved(result.partial),
    coverage: result.coverage,
  };
}

/**
 * The claims of `text` (their spans, and the claims as read unless the markers are over the cap) and its hidden
 * spans, split in slices with a turn between them.
 */
async function splitYielding(
  text: string,
  maxClaims: number,
  tally: StepCounter,
  signal?: AbortSignal,
): Promise<{ claims: ClaimSpan[]; read?: AnswerClaim[]; hidden: Range[]; overCap: boolean }> {
  let sliceEnd = tally.steps + SPLIT_SLICE_STEPS;
  // A turn once the slice is spent, awaited only then (`tally.steps >= sliceEnd`): an await per claim or pause
  // costs a microtask each, and an answer of short lines makes a pause every PAUSE_EVERY lines.
  const pause = async (): Promise<void> => {
    await nextTurn();
    signal?.throwIfAborted();
    sliceEnd = tally.steps + SPLIT_SLICE_STEPS;
  };
  const markerPass = markerSteps(text, 2 * maxClaims, tally);
  let found: AnswerMarkers | undefined;
  for (let step = markerPass.next(); found === undefined; step = markerPass.next()) {
    if (step.done === true) found = step.value;
    else if (tally.steps >= sliceEnd) await pause();
  }
  const claims: ClaimSpan[] = [];
  if (found.markers.length > 2 * maxClaims)
    return { claims: [{ start: 0, end: text.length }], hidden: [], overCap: true };
  const read: AnswerClaim[] = [];
  let clauses = 0;
  for (const claim of answerClaims(text, found, tally)) {
    if (claim !== PAUSE) {
      claims.push({ start: claim.range[0], end: claim.range[1] });
      read.push(claim);
      clauses += claim.clauses.length;
      if (clauses > maxClaims) return { claims, read, hidden: found.hidden, overCap: true };
    }
    if (tally.steps >= sliceEnd) await pause();
  }
  return { claims, read, hidden: found.hidden, overCap: false };
}
