import { ServiceError } from "../../errors/index.js";
import { isRecord } from "../../util.js";
import { maskSecrets } from "./masking.js";
import { parseRetryAfter } from "./timing.js";

/** What to do about a gateway answer that is not a usable completion. */
export type GatewayFailure =
  /** Give up with this error. */
  | { action: "fail"; error: ServiceError }
  /** A transient failure (5xx): try again; `reason` ("answered HTTP 503: …") goes into the final message. */
  | { action: "retry"; reason: string }
  /** The gateway refused `response_format`: ask again with a simpler one. */
  | { action: "downgrade_response_format"; reason: string };

/** A gateway answer with a non-2xx status, or a 2xx whose body is an `error` object. */
export interface GatewayAnswer {
  status: number;
  headers: Headers;
  bodyText: string;
  /** The model asked for; named in the model_not_found message. */
  model: string;
  /** Whether the request carried a `response_format` the gateway may have refused. */
  responseFormatSent: boolean;
  nowMs: number;
  /** Exact strings to mask in messages (the key sent), besides anything that looks like a key. */
  knownSecrets?: readonly string[] | undefined;
}

const quotaCodes = new Set([
  "insufficient_quota",
  "quota_exceeded",
  "billing_hard_limit_reached",
  "billing_not_active",
  "budget_exceeded",
  "insufficient_credits",
  "insufficient_balance",
  "credits_exhausted",
  "payment_required",
]);
const quotaMessage =
  /insufficient[ _-]?(quota|credits?|balance|funds)|exceeded your current quota|quota (has been |was )?exceeded|budget (has been |was )?exceeded|exceeded (the |your )?budget|over (the |your )?budget|(out of|no remaining) credits|credit balance is too low|billing hard limit/i;
const authCodes = new Set([
  "invalid_api_key",
  "invalid_key",
  "authentication_error",
  "permission_error",
  "permission_denied",
  "unauthorized",
]);
/** Keys refused with a 400 rather than a 401: Gemini ("API key not valid"), some proxies ("invalid API key"). */
const authMessage = /\bapi[ _-]?key (is )?(not valid|invalid)|\b(invalid|incorrect) api[ _-]?key\b/i;
const rateCodes = new Set(["rate_limit_exceeded", "rate_limit_error", "rate_limited", "too_many_requests"]);
const modelCodes = new Set(["model_not_found", "not_found_error", "model_not_available"]);
const modelMessage =
  /\bmodel\b.{0,100}\b(not found|does not exist|is not available)|\bunknown model|\binvalid model|\bno such model/i;
/**
 * How providers word a prompt longer than the model's context window: OpenAI and vLLM ("maximum context
 * length"), LiteLLM (ContextWindowExceededError), Anthropic ("prompt is too long"), Gemini ("input token
 * count … exceeds the maximum number of tokens").
 */
const contextLengthMessage =
  /context[ _-]?(length|window)[ _-]?(exceeded|is exceeded)?|maximum context length|prompt is too long|exceeds the maximum number of tokens|input (is )?too long|too many (input |prompt )?tokens/i;
const contextLengthCodes = new Set([
  "context_length_exceeded",
  "context_window_exceeded",
  "string_above_max_length",
]);

/** How gateways word a refused `response_format` (OpenAI, vLLM, LiteLLM, Ollama, llama.cpp…). */
const responseFormatMessage =
  /response_format|json_schema|json_object|structured output|guided_json|not supported|unsupported/i;

/**
 * Maps a failed gateway answer to the service's outcome: 401/403 (and a 400 saying the key is invalid, as
 * Gemini's) → invalid_key; 402, quota codes and
 * budget/credit messages → insufficient_quota; 429 → rate_limited (not retried; `Retry-After` forwarded);
 * 404 → model_not_found; a 400/413/422 context-length overflow → invalid_request (400, the caller's input is
 * too long, not a gateway fault); a 400/422 refusing `response_format` → downgrade; 5xx → retry; 3xx and other 4xx →
 * gateway_error. A 2xx with an `error` object is mapped by its numeric code, or by its code/type.
 */
export function mapGatewayError(answer: GatewayAnswer): GatewayFailure {
  const parsed = safeParse(answer.bodyText);
  // Gemini's OpenAI-compatible endpoint wraps its error object in a one-element array.
  const info = readGatewayError(Array.isArray(parsed) && parsed.length === 1 ? parsed[0] : parsed) ?? {};
  const status = effectiveStatus(answer.status, info);
  const mask = (message: string) => maskSecrets(message, answer.knownSecrets ?? []);
  // Masked whole, then cut: cutting first could leave the head of a key that the mask no longer recognises.
  const detail = describe(answer.status, info, answer.bodyText, mask);
  const fail = (type: ConstructorParameters<typeof ServiceError>[0], message: string, retryAfter?: number) =>
    ({
      action: "fail",
      error: new ServiceError(
        type,
        mask(message),
        retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter },
      ),
    }) as const;
  const codes = [info.code, info.type].flatMap((value) => (value === undefined ? [] : [value.toLowerCase()]));
  const hasCode = (set: Set<string>) => codes.some((code) => set.has(code));
  const message = info.message ?? "";

  if (status >= 300 && status < 400) {
    const location = answer.headers.get("location");
    return fail(
      "gateway_error",
      `The gateway redirected the call (${detail})${location === null ? "" : ` to ${location}`}; ` +
        "set the gateway URL to the final address.",
    );
  }
  if (status >= 500) return { action: "retry", reason: mask(`answered ${detail}`) };
  if (status === 402 || hasCode(quotaCodes) || quotaMessage.test(message)) {
    return fail("insufficient_quota", `The gateway reports exhausted credits or quota (${detail}).`);
  }
  if (
    status === 401 ||
    status === 403 ||
    hasCode(authCodes) ||
    (status === 400 && authMessage.test(message))
  ) {
    return fail("invalid_key", `The gateway refused the API key (${detail}).`);
  }
  if (status === 429 || hasCode(rateCodes)) {
    const retryAfter = parseRetryAfter(answer.headers, answer.nowMs);
    const when = retryAfter === undefined ? "retry later" : `retry after ${retryAfter} s`;
    return fail("rate_limited", `The gateway rate-limited the call (${detail}); ${when}.`, retryAfter);
  }
  if (
    (status === 400 || status === 413 || status === 422) &&
    (hasCode(contextLengthCodes) || contextLengthMessage.test(message))
  ) {
    return {
      action: "fail",
      error: new ServiceError(
        "invalid_request",
        mask(
          `The prompt is longer than the model's context window (${detail}). Send fewer or shorter sources or messages, or a model with a larger context.`,
        ),
        { param: "sources" },
      ),
    };
  }
  const formatText = [info.message, info.code, info.type, info.param].join(" ");
  if (
    answer.responseFormatSent &&
    (status === 400 || status === 422) &&
    responseFormatMessage.test(formatText)
  ) {
    return { action: "downgrade_response_format", reason: mask(detail) };
  }
  if (status === 404 || hasCode(modelCodes) || modelMessage.test(message)) {
    const model = JSON.stringify(answer.model.length > 100 ? `${answer.model.slice(0, 100)}…` : answer.model);
    return fail(
      "model_not_found",
      `The gateway does not know model ${model} (${detail}); check the model id, and that the gateway URL ` +
        "includes any /v1 prefix the gateway needs.",
    );
  }
  if (status >= 200 && status < 300)
    return fail("gateway_error", `The gateway answered with an error (${detail}).`);
  return fail("gateway_error", `The gateway rejected the call (${detail}).`);
}

/** A 2xx carrying `error: {code: 429}` is treated as a 429; OpenRouter reports upstream failures this way. */
function effectiveStatus(status: number, info: GatewayErrorInfo): number {
  if (status < 200 || status >= 300 || info.code === undefined || !/^\d{3}$/.test(info.code)) return status;
  const code = Number(info.code);
  return code >= 400 && code < 600 ? code : status;
}

/** The most characters of gateway text (message and code) a service message quotes. */
export const maxGatewayDetailLength = 300;

/**
 * `HTTP 429: You exceeded your current quota…`, short enough for a message, whitespace collapsed. The text is
 * masked before it is cut to `maxGatewayDetailLength`, so no part of a key survives the cut. O(n).
 */
function describe(
  status: number,
  info: GatewayErrorInfo,
  bodyText: string,
  mask: (text: string) => string,
): string {
  let text = info.message;
  if (text === undefined) {
    const trimmed = bodyText.trim();
    if (trimmed.startsWith("<")) text = "an HTML error page";
    else if (trimmed !== "" && !trimmed.startsWith("{") && !trimmed.startsWith("[")) text = trimmed;
  }
  const code =
    info.code !== undefined && info.code !== String(status)
      ? ` [${cut(mask(info.code.replace(/\s+/g, " ")), 100)}]`
      : "";
  if (text === undefined || text.trim() === "") return `HTTP ${status}${code}`;
  // A trailing full stop is dropped: the detail sits inside the service's own sentence.
  const oneLine = trimTrailingDots(mask(text.replace(/\s+/g, " ").trim()));
  return `HTTP ${status}${code}: ${cut(oneLine, maxGatewayDetailLength)}`;
}

function cut(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

/** Drops trailing full stops with a loop: `/\.+$/` takes O(n²) steps on a long run of dots mid-text. */
function trimTrailingDots(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 46) end -= 1;
  return text.slice(0, end);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The parts of a gateway's error body the service looks at. All optional: gateways disagree on shape. */
export interface GatewayErrorInfo {
  message?: string;
  code?: string;
  type?: string;
  param?: string;
}

/**
 * Reads the error out of a parsed gateway body: OpenAI's `{error: {message, code, type, param}}`, a bare
 * `{error: "text"}`, `{message, code}` at the top level, or FastAPI's `{detail: …}`. Undefined when the body
 * carries no error.
 */
export function readGatewayError(body: unknown): GatewayErrorInfo | undefined {
  if (!isRecord(body)) return undefined;
  const { error } = body;
  if (isRecord(error)) return pick(error);
  if (typeof error === "string") return pick({ ...body, message: error });
  if (typeof body.message === "string") return pick(body);
  if (typeof body.detail === "string") return { message: body.detail };
  if (body.detail !== undefined && body.detail !== null) return { message: JSON.stringify(body.detail) };
  return undefined;
}

function pick(record: Record<string, unknown>): GatewayErrorInfo {
  const info: GatewayErrorInfo = {};
  const message = textOf(record.message);
  const code = textOf(record.code);
  const type = textOf(record.type);
  const param = textOf(record.param);
  if (message !== undefined) info.message = message;
  if (code !== undefined) info.code = code;
  if (type !== undefined) info.type = type;
  if (param !== undefined) info.param = param;
  return info;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}
