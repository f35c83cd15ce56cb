import {
  type ClaimsResult,
  checkAnswer,
  describeNumberMiss,
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

/** One line per claim a number check dropped: the claim and why (`--explain`). */
export function explainDropped(result: object): string[] {
  const unsupported = (result as Partial<ClaimsResult>).unsupported ?? [];
  return unsupported.flatMap((item) =>
    item.detail === undefined || !("number" in item.detail)
      ? []
      : [`dropped ${JSON.stringify(item.claim)}: ${describeNumberMiss(item.detail as NumberMiss)}`],
  );
}

function duplicateError(index: number): CheckDocumentOutcome {
  return {
    ok: false,
    param: `sources[${index}].id`,
    message: `"sources[${index}].id" repeats an earlier source id; ids must be unique.`,
  };
}
