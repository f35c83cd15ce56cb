import {
  type AnswerMissDetail,
  checkAnswer,
  describeDrop,
  findDuplicateSourceId,
  type NumberMiss,
  verifyClaims,
  verifyFields,
} from "../../core/index.js";
import { MAX_ANSWER_BEST_SPAN_CHARS } from "../../limits.js";
import { answerResultToWire, questionOf } from "../../service/index.js";
import {
  CheckDocumentSchema,
  CheckFieldsRequestSchema,
  compileValidator,
  convertFieldRanges,
  convertResultRanges,
  type OffsetUnit,
  sourceTexts,
} from "../../wire/index.js";
import type { RecentSources } from "./jsonl-batch.js";

const validateClaimsDocument = compileValidator(CheckDocumentSchema);
const validateFieldsDocument = compileValidator(CheckFieldsRequestSchema);

/** The outcome of checking one `verified check` document. */
export type CheckDocumentOutcome =
  | { ok: true; result: object }
  | { ok: false; param: string | undefined; message: string };

/**
 * Checks one parsed document: `{sources, claims, mode?, check_numbers?}` gives the claims result,
 * `{sources, fields, mode?}` the fields result. Field names are the HTTP ones. With `recent`, sources
 * seen by earlier documents are reused already prepared. Ranges count in the document's `offsets`, else
 * in `offsets` (`--offsets`), else in UTF-16 code units.
 */
export function checkDocument(
  document: unknown,
  explain = false,
  recent?: RecentSources,
  offsets?: OffsetUnit,
): CheckDocumentOutcome {
  const isFields =
    typeof document === "object" && document !== null && "fields" in document && !("claims" in document);
  if (isFields) {
    const validation = validateFieldsDocument(document);
    if (!validation.ok) return validation;
    const duplicate = findDuplicateSourceId(validation.value.sources);
    if (duplicate >= 0) return duplicateError(duplicate);
    const { sources } = validation.value;
    const result = verifyFields(
      recent?.prepare(sources) ?? sources,
      validation.value.fields,
      validation.value,
    );
    const unit = validation.value.offsets ?? offsets;
    return {
      ok: true,
      result: {
        ...result,
        fields: convertFieldRanges(result.fields, unit, { sources: sourceTexts(sources) }),
      },
    };
  }
  const validation = validateClaimsDocument(document);
  if (!validation.ok) return validation;
  const duplicate = findDuplicateSourceId(validation.value.sources);
  if (duplicate >= 0) return duplicateError(duplicate);
  const { sources, claims, answer, mode, check_numbers: checkNumbers } = validation.value;
  if ((claims === undefined) === (answer === undefined)) {
    return {
      ok: false,
      param: claims === undefined ? "claims" : "answer",
      message: `the document has ${claims === undefined ? "neither" : "both"} "claims" ${claims === undefined ? "nor" : "and"} "answer"; give exactly one`,
    };
  }
  if (answer !== undefined) {
    // The endpoint's span budget, so a result is the endpoint's to the byte; its claim cap is left out: a
    // local check serves one user, and its cost is linear in the answer.
    const checked = checkAnswer(sources, answer, {
      mode,
      checkNumbers,
      explain: explain || validation.value.explain === true,
      question: questionOf(validation.value.messages),
      partial: validation.value.partial,
      maxBestSpanChars: MAX_ANSWER_BEST_SPAN_CHARS,
    });
    const answerUnit = validation.value.offsets ?? offsets;
    const texts = { sources: sourceTexts(sources), answer };
    return { ok: true, result: convertResultRanges(answerResultToWire(checked), answerUnit, texts) };
  }
  const result = verifyClaims(recent?.prepare(sources) ?? sources, claims ?? [], {
    mode,
    checkNumbers,
    explain: explain || validation.value.explain === true,
  });
  const unit = validation.value.offsets ?? offsets;
  return { ok: true, result: convertResultRanges(result, unit, { sources: sourceTexts(sources) }) };
}

/**
 * One line per dropped claim whose `detail` says why (`--explain`): the number that failed, or in answer
 * mode the entity, quotation, marker, missing words or the sources that do support it; then, in answer mode,
 * one line per kept, partially supported claim naming the words its spans lack.
 */
export function explainMisses(result: object): string[] {
  const { unsupported = [], partial = [] } = result as {
    unsupported?: WireUnsupported[];
    partial?: { claim: string; term: string }[];
  };
  const dropped = unsupported.flatMap((item) => {
    const why = describeDrop({ reason: item.reason, detail: detailOf(item.detail) });
    return why === undefined ? [] : [`dropped ${JSON.stringify(item.claim)}: ${why}`];
  });
  // Terms come in answer order, so one claim's terms are adjacent.
  const kept: { claim: string; words: string[] }[] = [];
  for (const { claim, term } of partial) {
    const last = kept.at(-1);
    if (last?.claim === claim) last.words.push(term);
    else kept.push({ claim, words: [term] });
  }
  const partly = kept.flatMap(({ claim, words }) => {
    const why = describeDrop({ reason: "partial_support", detail: { words } });
    return why === undefined ? [] : [`kept ${JSON.stringify(claim)} partly: ${why}`];
  });
  return [...dropped, ...partly];
}

/** An unsupported entry as the wire has it: answer mode's `found_in` in snake_case. */
interface WireUnsupported {
  claim: string;
  reason: string;
  detail?:
    | NumberMiss
    | (Omit<AnswerMissDetail, "foundIn" | "differsOnlyIn" | "sourceText"> & {
        found_in?: string[];
        differs_only_in?: AnswerMissDetail["differsOnlyIn"];
        source_text?: string;
      });
}

function detailOf(detail: WireUnsupported["detail"]): NumberMiss | AnswerMissDetail | undefined {
  if (detail === undefined || "number" in detail) return detail;
  const { found_in: foundIn, differs_only_in: differsOnlyIn, source_text: sourceText, ...rest } = detail;
  return {
    ...rest,
    ...(foundIn === undefined ? {} : { foundIn }),
    ...(differsOnlyIn === undefined ? {} : { differsOnlyIn }),
    ...(sourceText === undefined ? {} : { sourceText }),
  };
}

function duplicateError(index: number): CheckDocumentOutcome {
  return {
    ok: false,
    param: `sources[${index}].id`,
    message: `"sources[${index}].id" repeats an earlier source id; ids must be unique.`,
  };
}
