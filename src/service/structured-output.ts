import { ServiceError } from "../errors/index.js";
import {
  type ChatMessage,
  type GenerateRequest,
  type GenerateStream,
  nextTurn,
  runStepsYielding,
} from "../models/index.js";
import type { Steps } from "../util.js";
import { parseModelJsonSteps } from "./model-json.js";
import type { ShapeCheck } from "./model-output.js";
import type { OperationContext } from "./operation-context.js";
import { buildReask } from "./prompts.js";
import { addCall, type UsageTotal } from "./usage.js";

/** A usable model reply: its parsed value, the raw text (for retry feedback) and the full conversation. */
export interface StructuredReply<T> {
  value: T;
  content: string;
  messages: ChatMessage[];
}

/** How a reply's JSON was read (see `ModelJson`): its text, and whether the value is its first object. */
export interface ReplyReading {
  content: string;
  readsFirstObject: boolean;
}

/**
 * Calls the model and reads its JSON through `read` (when it returns steps, run with turns between them);
 * unparseable or wrong-shaped output gets one re-ask, then `extraction_failed`. Every call is added to
 * `usage`. With `streamFor`, each call streams its reply into the stream it returns.
 */
export async function generateStructured<T>(
  context: OperationContext,
  request: Omit<GenerateRequest, "apiKey" | "signal">,
  read: (value: unknown, reading: ReplyReading) => ShapeCheck<T> | Steps<ShapeCheck<T>>,
  usage: UsageTotal,
  streamFor?: (() => Promise<GenerateStream>) | undefined,
): Promise<StructuredReply<T>> {
  let messages = request.messages;
  let problem = "";
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const stream = await streamFor?.();
    const result = await context.gateway.generate({
      ...request,
      messages,
      apiKey: context.apiKey,
      signal: context.signal,
      stream,
    });
    addCall(usage, result.usage);
    // Parsed in a turn of its own: a reply of megabytes that arrives with other requests' work (an eval's
    // other cases) would otherwise be parsed in the same pass of the event loop as that work. A reply of
    // megabytes is scanned a MiB a turn and parsed from a turn of its own (`parseModelJsonSteps`).
    await nextTurn();
    const parsed = await runStepsYielding(parseModelJsonSteps(result.content), context.signal);
    const reading = parsed.ok
      ? read(parsed.value, { content: result.content, readsFirstObject: parsed.readsFirstObject })
      : parsed;
    const shaped = "ok" in reading ? reading : await runStepsYielding(reading, context.signal);
    if (shaped.ok) return { value: shaped.value, content: result.content, messages };
    problem = shaped.error;
    messages = [...request.messages, ...buildReask(result.content, problem)];
  }
  throw new ServiceError(
    "extraction_failed",
    `The model's output was unusable after one re-ask: ${problem}. Check that the model follows the output contract in docs/api.md.`,
  );
}
