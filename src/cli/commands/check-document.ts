import {
  type AnswerMissDetail,
  checkAnswer,
  describeDrop,
  findDuplicateSourceId,
  type NumberMiss,
  verifyClaims,
  verifyFields,
} from "../../core/index.js";
import { answerResultToWire, questionOf } from "../../service/index.js";
import { CheckDocumentSchema, CheckFieldsRequestSchema, compileValidator } from "../../wire/index.js";
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
 * seen by earlier documents are reused already prepared.
 */
export function checkDocument(
  document: unknown,
  explain = false,
  recent?: RecentSources,
): CheckDocumentOutcome {
  const isFields =
    typeof document === "object" && document !== null && "fields" in document && !("claims" in document);
  if (isFields) {
    const validation = validateFieldsDocument(document);
    if (!validation.ok) return validation;
    const duplicate = findDuplicateSourceId(validation.value.sources);
    if (duplicate >= 0) return duplicateError(duplicate);
    return {
      ok: true,
      result: verifyFields(
        recent?.prepare(validation.value.sources) ?? validation.value.sources,
        validation.value.fields,
        validation.value,
      ),
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
    const checked = checkAnswer(sources, answer, {
      mode,
      checkNumbers,
      explain: explain || validation.value.explain === true,
      question: questionOf(validation.value.messages),
    });
    return { ok: true, result: answerResultToWire(checked) };
  }
  const result = verifyClaims(recent?.prepare(sources) ?? sources, claims ?? [], {
    mode,
    checkNumbers,
    explain: explain || validation.value.explain === true,
  });
  return { ok: true, result };
}

/**
 * One line per dropped claim whose `detail` says why (`--explain`): the number that failed, or in answer
 * mode the entity, quotation, marker, missing words or the sources that do support it.
 */
export function explainDropped(result: object): string[] {
  const unsupported = (result as { unsupported?: WireUnsupported[] }).unsupported ?? [];
  return unsupported.flatMap((item) => {
    const why = describeDrop({ reason: item.reason, detail: detailOf(item.detail) });
    return why === undefined ? [] : [`dropped ${JSON.stringify(item.claim)}: ${why}`];
  });
}

/** An unsupported entry as the wire has it: answer mode's `found_in` in snake_case. */
interface WireUnsupported {
  claim: string;
  reason: string;
  detail?: NumberMiss | (Omit<AnswerMissDetail, "foundIn"> & { found_in?: string[] });
}

function detailOf(detail: WireUnsupported["detail"]): NumberMiss | AnswerMissDetail | undefined {
  if (detail === undefined || "number" in detail) return detail;
  const { found_in: foundIn, ...rest } = detail;
  return foundIn === undefined ? rest : { ...rest, foundIn };
}

function duplicateError(index: number): CheckDocumentOutcome {
  return {
    ok: false,
    param: `sources[${index}].id`,
    message: `"sources[${index}].id" repeats an earlier source id; ids must be unique.`,
  };
}
