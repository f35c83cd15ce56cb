import { OWN_TURN_TEXT_CHARS } from "../../limits.js";
import type { Steps } from "../../util.js";
import { contentText } from "../relay-by-generate.js";
import type { GenerateResult } from "../types.js";
import { type GatewayErrorInfo, readGatewayError } from "./error-mapping.js";

/**
 * A 2xx gateway body read as a chat completion: the content and usage, an `error` object the gateway sent
 * with its 200, or the reason the body is not a completion at all.
 */
export type ParsedCompletion =
  | { ok: true; value: GenerateResult }
  | { ok: false; kind: "error_object"; info: GatewayErrorInfo }
  | { ok: false; kind: "malformed"; reason: string };

/**
 * A gateway answer's bytes decoded as UTF-8, from a step of its own when there are `stepBytes` or more. An
 * answer's last bytes arrive in an I/O callback, often with other answers' (an eval's cases call at once);
 * decoded there, each megabyte answer's decode (and the fresh memory its text takes) would add up in one pass
 * of the event loop. Run with turns (`runStepsYielding`), each is decoded from a pass of its own.
 */
export function* decodeAnswerSteps(bytes: Buffer, stepBytes = OWN_TURN_TEXT_CHARS): Steps<string> {
  if (bytes.length >= stepBytes) yield;
  return bytes.toString("utf8");
}

/**
 * Reads a Chat Completions body. Empty or null content and `finish_reason: "length"` are still completions:
 * the caller decides what truncated or empty output means. Content given as an array of parts is joined.
 */
export function parseChatCompletion(text: string): ParsedCompletion {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, kind: "malformed", reason: describeNonJson(text) };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, kind: "malformed", reason: "answered JSON that is not an object" };
  }
  const record = body as Record<string, unknown>;
  const choices = record.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    const info = readGatewayError(record);
    if (info !== undefined && "error" in record) return { ok: false, kind: "error_object", info };
    return { ok: false, kind: "malformed", reason: "answered JSON without choices" };
  }
  const { invalid, ...usage } = usageOf(record.usage);
  const value: GenerateResult = { content: contentOf(firstChoice(choices)), usage };
  if (invalid.length > 0) value.invalidUsage = invalid;
  return { ok: true, value };
}

/**
 * The first choice of a completion's or a chunk's `choices`: the choice whose `index` is 0, a choice without
 * an `index` counting by its place in the array (some gateways leave it out). A streamed chunk of a call with
 * `n` above 1 may carry another choice first, or only another choice: then it has none. O(choices).
 */
export function firstChoice(choices: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(choices)) return undefined;
  for (const [place, choice] of choices.entries()) {
    if (
      typeof choice === "object" &&
      choice !== null &&
      ((choice as { index?: unknown }).index ?? place) === 0
    )
      return choice as Record<string, unknown>;
  }
  return undefined;
}

function describeNonJson(text: string): string {
  const start = text.trimStart().slice(0, 100).toLowerCase();
  if (start === "") return "answered an empty body";
  if (start.startsWith("<!doctype html") || start.startsWith("<html") || start.startsWith("<")) {
    return "answered an HTML page instead of JSON";
  }
  return "answered a body that is not JSON";
}

function contentOf(choice: unknown): string {
  if (typeof choice !== "object" || choice === null) return "";
  const { message, text } = choice as { message?: unknown; text?: unknown };
  if (typeof message === "object" && message !== null) {
    return contentText((message as { content?: unknown }).content) ?? "";
  }
  // Legacy completions put the text on the choice itself.
  return typeof text === "string" ? text : "";
}

const usageNames = ["prompt_tokens", "completion_tokens", "total_tokens"] as const;

/**
 * Token counts as the gateway reported them. A count that is not a non-negative safe integer (null, negative,
 * fractional, 1e300, a string) is left out, counted as 0 (a missing total is the sum of the other two), and
 * named in `invalidUsage` so the request's log line can say so.
 */
export function usageOf(usage: unknown): GenerateResult["usage"] & { invalid: string[] } {
  const record = typeof usage === "object" && usage !== null ? (usage as Record<string, unknown>) : {};
  const invalid = usageNames.filter((name) => name in record && count(record[name]) === undefined);
  const promptTokens = count(record.prompt_tokens);
  const completionTokens = count(record.completion_tokens);
  const totalTokens = count(record.total_tokens) ?? (promptTokens ?? 0) + (completionTokens ?? 0);
  return { promptTokens: promptTokens ?? 0, completionTokens: completionTokens ?? 0, totalTokens, invalid };
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
