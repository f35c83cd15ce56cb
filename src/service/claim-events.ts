import {
  type CandidateClaim,
  type Citation,
  type ClaimCheckOptions,
  type ClaimVerdict,
  createPendingClaims,
  type PendingClaims,
  type PreparedSource,
  type UnsupportedClaim,
} from "../core/index.js";
import { type GenerateStream, nextTurn } from "../models/index.js";
import type { CreateResult } from "../wire/index.js";
import { type ClaimStreamReader, createStreamedClaims, sameClaim } from "./claim-stream-reader.js";
import { judgeClaimsReporting, judgeClaimsYielding } from "./judge-yielding.js";

/**
 * What a streamed create reports before its result, in the service's own terms (a prose answer's citations
 * carry answer mode's fields, already in the wire's shape).
 */
export type CreateProgress =
  /** A claim that passed the check, as soon as its object closed in the model's output. */
  | { type: "claim"; citation: Citation | CreateResult["citations"][number]; answer?: string }
  /** A claim that failed the check. */
  | {
      type: "unsupported";
      unsupported: UnsupportedClaim | CreateResult["unsupported"][number];
      answer?: string;
    }
  /** Model call `attempt` (2, 3, …) for claims starts: what came before belongs to an earlier call. */
  | { type: "attempt"; attempt: number };

/** Where a streamed create reports to: `open` once the first model call is accepted, then its progress. */
export interface CreateObserver {
  open(): void;
  progress(event: CreateProgress): void;
  /**
   * While the caller has not yet taken what was sent (an HTTP stream's buffer over its high-water mark): a
   * promise that resolves once it has, or once it has gone. Else undefined. Claim events (a prose answer's and a
   * claims call's) wait here one by one, so a slow reader holds back the check instead of the events piling up
   * in memory.
   */
  drained?(): Promise<void> | undefined;
}

/** Claim events sent between two turns of the event loop (each costs its wire shape, offsets, JSON and a write). */
export const EVENTS_PER_TURN = 128;

/**
 * Sends a streamed create's claim events one at a time, in the order given: a turn of the event loop after
 * every `EVENTS_PER_TURN` of them, and each next one held while the caller has not taken what was sent
 * (`observer.drained`). Returns what the caller must wait for before the next event, or undefined when it may
 * send it at once: events sent without a wait between them stay in one pass of the event loop, so an HTTP
 * stream writes them together. The wait stops with `signal`'s reason once it aborts.
 */
export function pacedProgress(
  observer: CreateObserver,
  signal?: AbortSignal,
): (event: CreateProgress) => Promise<void> | undefined {
  let sent = 0;
  const waitFor = async (wait: Promise<void>): Promise<void> => {
    await wait;
    signal?.throwIfAborted();
  };
  const sendNow = (event: CreateProgress): Promise<void> | undefined => {
    sent += 1;
    observer.progress(event);
    const backlog = observer.drained?.();
    return backlog === undefined ? undefined : waitFor(backlog);
  };
  return (event) => {
    if (sent === 0 || sent % EVENTS_PER_TURN !== 0) return sendNow(event);
    return waitFor(nextTurn()).then(() => sendNow(event));
  };
}

/** The claim events of one create: a stream for each claims call, and the verdicts once a call is used. */
export interface ClaimEvents {
  /**
   * The stream to give the next claims call, once every claim the previous call's stream delivered is
   * reported; from the second call on it first reports an `attempt`.
   */
  nextCall(): Promise<GenerateStream>;
  /**
   * The verdicts on the used call's claims (parsed from its whole reply), reusing those already streamed and
   * reporting the claims no stream delivered (a gateway that could not stream delivers them all here).
   */
  settle(claims: readonly CandidateClaim[]): Promise<ClaimVerdict[]>;
}

/** The claims of one model call: judged and reported, or held until a batch of them is judged. */
interface CallClaims {
  streamed: { candidate: CandidateClaim; verdict: ClaimVerdict }[];
  pending: CandidateClaim[];
  held: PendingClaims;
  /** The batch being judged, if any. */
  judging: Promise<void> | undefined;
  /** The reply is complete: what is held is judged now, whatever `held` says. */
  complete: boolean;
  failure: { error: unknown } | undefined;
  /** The reading of the text the stream queued, while it runs (`readQueued`). */
  reading: Promise<void> | undefined;
}

/**
 * Judges the claims of a claims call as the model's stream closes their objects, with exactly the check of
 * the non-streaming path (verdicts do not depend on the other claims), and reports them in order. Claims are
 * judged in batches off the stream's read loop, as `judgeClaimsYielding` judges a whole reply: in slices with
 * turns of the event loop between them, and held while their source searches quotes at once until a batch
 * is worth a pass (`createPendingClaims`), so that a reply costs O(n + Σm) however the stream cuts it. An
 * element of the wrong shape stops the reports of that call: its whole reply will fail the same check and be
 * re-asked.
 */
export function createClaimEvents(
  prepared: ReadonlyMap<string, PreparedSource>,
  options: ClaimCheckOptions,
  observer: CreateObserver,
  signal?: AbortSignal,
): ClaimEvents {
  let calls = 0;
  let call: CallClaims | undefined;
  const send = pacedProgress(observer, signal);

  const report = (verdict: ClaimVerdict): Promise<void> | undefined =>
    send(
      verdict.grounded
        ? { type: "claim", citation: verdict.citation }
        : { type: "unsupported", unsupported: verdict.unsupported },
    );

  const judgeHeld = async (current: CallClaims): Promise<void> => {
    // Never inside the stream's read loop: the first batch starts once the loop has handed over its piece.
    await Promise.resolve();
    while (current.pending.length > 0 && (current.complete || current.held.ready())) {
      const batch = current.pending.splice(0);
      const judgedBefore = current.streamed.length;
      current.held = createPendingClaims(prepared, options);
      await judgeClaimsReporting(
        prepared,
        batch,
        options,
        async (verdicts) => {
          for (const verdict of verdicts) {
            const candidate = batch[current.streamed.length - judgedBefore] as CandidateClaim;
            current.streamed.push({ candidate, verdict });
            const wait = report(verdict);
            if (wait !== undefined) await wait;
          }
        },
        signal,
      );
      // Claims that arrived meanwhile are weighed again against what the batch searched.
      current.held = createPendingClaims(prepared, options);
      for (const candidate of current.pending) current.held.add(candidate);
    }
  };
  const startJudging = (current: CallClaims): Promise<void> => {
    current.judging ??= judgeHeld(current)
      .catch((error: unknown) => {
        current.failure ??= { error };
      })
      .finally(() => {
        current.judging = undefined;
      });
    return current.judging;
  };

  /**
   * Reads the text the call's stream queued, a slice (`CLAIM_READ_SLICE_CHARS`) a pass of the event loop: the
   * first slice in the pass its text arrived in (after the stream's callback has returned), each next one after
   * a turn, and a turn after the last, so that the text a next pass queues is read in a pass of its own. A reply
   * handed over in one piece of megabytes is read over as many passes, not in one block. The claims read are
   * judged once all the text queued so far is read (when `held` allows): a stream's ordinary pieces are read
   * and their claims judged in the pass they arrive in, and a piece of megabytes is one batch, not one a slice.
   */
  const readQueued = async (current: CallClaims, reader: ClaimStreamReader): Promise<void> => {
    await Promise.resolve();
    try {
      do {
        if (!reader.read() && current.pending.length > 0 && current.held.ready()) startJudging(current);
        await nextTurn();
        signal?.throwIfAborted();
      } while (reader.queued);
    } catch (error) {
      current.failure ??= { error };
    } finally {
      current.reading = undefined;
    }
  };

  /** Judges and reports whatever the call's stream delivered: its reply is complete. */
  const judgeAll = async (current: CallClaims): Promise<void> => {
    while (current.reading !== undefined) await current.reading;
    current.complete = true;
    while (current.judging !== undefined || (current.pending.length > 0 && current.failure === undefined))
      await startJudging(current);
    if (current.failure !== undefined) throw current.failure.error;
  };

  return {
    async nextCall() {
      if (call !== undefined) await judgeAll(call);
      calls += 1;
      if (calls > 1) observer.progress({ type: "attempt", attempt: calls });
      const current: CallClaims = {
        streamed: [],
        pending: [],
        held: createPendingClaims(prepared, options),
        judging: undefined,
        complete: false,
        failure: undefined,
        reading: undefined,
      };
      call = current;
      const reader = createStreamedClaims((candidate) => {
        current.pending.push(candidate);
        current.held.add(candidate);
      });
      return {
        onOpen: () => observer.open(),
        onText: (text) => {
          reader.push(text);
          current.reading ??= readQueued(current, reader);
        },
      };
    },
    async settle(claims) {
      const current = call;
      call = undefined;
      if (current !== undefined) await judgeAll(current);
      const streamed = current?.streamed ?? [];
      const agrees =
        streamed.length <= claims.length &&
        streamed.every((item, index) => sameClaim(item.candidate, claims[index]));
      // The whole reply's reading agrees with the stream's (readClaimsReply refuses one that does not); should
      // they ever differ, the whole reply decides.
      const kept = agrees ? streamed.map((item) => item.verdict) : [];
      // The claims no stream delivered are checked in slices with turns of the event loop between them.
      const rest = await judgeClaimsYielding(prepared, claims.slice(kept.length), options, signal);
      for (const verdict of rest) {
        const wait = report(verdict);
        if (wait !== undefined) await wait;
      }
      return [...kept, ...rest];
    },
  };
}
