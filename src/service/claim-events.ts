import {
  type CandidateClaim,
  type Citation,
  type ClaimCheckOptions,
  type ClaimVerdict,
  judgeClaims,
  type PreparedSource,
  type UnsupportedClaim,
} from "../core/index.js";
import type { GenerateStream } from "../models/index.js";
import type { CreateResult } from "../wire/index.js";
import { createClaimStreamReader } from "./claim-stream-reader.js";
import { judgeClaimsYielding } from "./judge-yielding.js";
import { readClaimItem } from "./model-output.js";

/**
 * What a streamed create reports before its result, in the service's own terms (a prose answer's citations
 * carry answer mode's fields, already in the wire's shape).
 */
export type CreateProgress =
  /** A claim that passed the check, as soon as its object closed in the model's output. */
  | { type: "claim"; citation: Citation | CreateResult["citations"][number] }
  /** A claim that failed the check. */
  | { type: "unsupported"; unsupported: UnsupportedClaim | CreateResult["unsupported"][number] }
  /** Model call `attempt` (2, 3, …) for claims starts: what came before belongs to an earlier call. */
  | { type: "attempt"; attempt: number };

/** Where a streamed create reports to: `open` once the first model call is accepted, then its progress. */
export interface CreateObserver {
  open(): void;
  progress(event: CreateProgress): void;
}

/** The claim events of one create: a stream for each claims call, and the verdicts once a call is used. */
export interface ClaimEvents {
  /** The stream to give the next claims call; from the second call on it first reports an `attempt`. */
  nextCall(): GenerateStream;
  /**
   * The verdicts on the used call's claims (parsed from its whole reply), reusing those already streamed and
   * reporting the claims no stream delivered (a gateway that could not stream delivers them all here).
   */
  settle(claims: readonly CandidateClaim[], signal?: AbortSignal): Promise<ClaimVerdict[]>;
}

/**
 * Judges each claim of a claims call as the model's stream closes its object, with exactly the check of the
 * non-streaming path (`judgeClaims` on that one claim: verdicts do not depend on the other claims), and
 * reports it. An element of the wrong shape stops the reports of that call: its whole reply will fail the
 * same check and be re-asked.
 */
export function createClaimEvents(
  prepared: ReadonlyMap<string, PreparedSource>,
  options: ClaimCheckOptions,
  observer: CreateObserver,
): ClaimEvents {
  let calls = 0;
  let streamed: { candidate: CandidateClaim; verdict: ClaimVerdict }[] = [];

  const report = (verdict: ClaimVerdict): ClaimVerdict => {
    observer.progress(
      verdict.grounded
        ? { type: "claim", citation: verdict.citation }
        : { type: "unsupported", unsupported: verdict.unsupported },
    );
    return verdict;
  };
  const judgeAndReport = (candidate: CandidateClaim): ClaimVerdict =>
    report(judgeClaims(prepared, [candidate], options)[0] as ClaimVerdict);

  return {
    nextCall() {
      calls += 1;
      if (calls > 1) observer.progress({ type: "attempt", attempt: calls });
      streamed = [];
      let usable = true;
      const reader = createClaimStreamReader((item, index) => {
        if (!usable) return;
        const candidate = readClaimItem(item, index);
        if (!candidate.ok) {
          usable = false;
          return;
        }
        streamed.push({ candidate: candidate.value, verdict: judgeAndReport(candidate.value) });
      });
      return { onOpen: () => observer.open(), onText: (text) => reader.push(text) };
    },
    async settle(claims, signal) {
      const agrees =
        streamed.length <= claims.length &&
        streamed.every((item, index) => sameClaim(item.candidate, claims[index]));
      // The stream read the reply as JSON.parse does; should they ever differ, the whole reply decides.
      const kept = agrees ? streamed.map((item) => item.verdict) : [];
      streamed = [];
      // The claims no stream delivered are checked in slices with turns of the event loop between them.
      const rest = await judgeClaimsYielding(prepared, claims.slice(kept.length), options, signal);
      return [...kept, ...rest.map(report)];
    },
  };
}

function sameClaim(a: CandidateClaim, b: CandidateClaim | undefined): boolean {
  return b !== undefined && a.claim === b.claim && a.quote === b.quote && a.source === b.source;
}
