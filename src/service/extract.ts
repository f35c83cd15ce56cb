import { type FieldsResult, type MatchMode, type Source, verifyFields } from "../core/index.js";
import { checkSources } from "./check-sources.js";
import { fieldsOutputSchema, readFieldsOutput } from "./model-output.js";
import type { OperationContext } from "./operation-context.js";
import { buildFieldsMessages } from "./prompts.js";
import { generateStructured } from "./structured-output.js";
import { emptyUsage, type UsageTotal } from "./usage.js";

/** An extract request in the service's own terms. */
export interface ExtractInput {
  model: string;
  sources: Source[];
  schema: Record<string, string>;
  mode?: MatchMode | undefined;
}

/**
 * Extract: asks the model for each field as an exact substring of a source, then keeps only values the
 * core finds verbatim; the rest are null with reason `not_found`.
 */
export async function extractVerified(
  input: ExtractInput,
  context: OperationContext,
): Promise<FieldsResult & { usage: UsageTotal }> {
  checkSources(input.sources, context.sourcesBudget);
  const names = Object.keys(input.schema);
  const usage = emptyUsage();
  const reply = await generateStructured(
    context,
    {
      model: input.model,
      messages: buildFieldsMessages(input.sources, input.schema),
      task: { kind: "fields", sources: input.sources, schema: input.schema },
      responseSchema: { name: "verified_fields", schema: fieldsOutputSchema(names) },
    },
    (value) => readFieldsOutput(value, names),
    usage,
  );
  return { ...verifyFields(input.sources, reply.value, { mode: input.mode }), usage };
}
