import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { DROP_IN_PATHS } from "../../api-paths.js";
import { ServiceError } from "../../errors/index.js";
import { MAX_CHECK_BODY_BYTES, MAX_GATEWAY_RESPONSE_BYTES } from "../../limits.js";
import {
  firstChoice,
  type GenerateTask,
  isEventStream,
  notUtf8At,
  type RelayResponse,
  readBodyWithLimit,
  textMessages,
} from "../../models/index.js";
import {
  blockedAnswer,
  type ChatSources,
  chatSources,
  firstChoiceText,
  proseSystemPrompt,
  verifiedChatStream,
  verifyChatAnswer,
} from "../../service/index.js";
import { isRecord } from "../../util.js";
import {
  type ChatCompletionRequest,
  ChatCompletionRequestSchema,
  ChatCompletionResultSchema,
  compileValidator,
  ErrorBodySchema,
  type VerificationRequest,
  VerificationRequestSchema,
} from "../../wire/index.js";
import type { AppDeps } from "../config.js";
import { operationContext } from "../request-state.js";

/**
 * `POST /v1/chat/completions`: the OpenAI Chat Completions wire. Without `verification` the body goes to the
 * gateway as sent and its answer comes back as sent, streams byte for byte. With it, the first choice's answer
 * is checked against the request's sources and reported in a top-level `verification` (streamed: one more
 * chunk before `[DONE]`).
 */
export function registerChatCompletionsRoute(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: ChatCompletionRequest }>(
    DROP_IN_PATHS.chatCompletions,
    {
      bodyLimit: MAX_CHECK_BODY_BYTES,
      schema: {
        summary: "OpenAI Chat Completions, verified on request",
        description:
          "The OpenAI Chat Completions wire, passed to the model's gateway unchanged. With a `verification` object, the answer is checked against sources and a `verification` report is added. See docs/drop-in.md.",
        body: ChatCompletionRequestSchema,
        response: {
          200: {
            description:
              'The gateway\'s `chat.completion`; with `"stream": true`, its `chat.completion.chunk` events, and with verification one more chunk (`choices: []`, `verification`) before `data: [DONE]`.',
            content: {
              "application/json": { schema: ChatCompletionResultSchema },
              "text/event-stream": { schema: ChatCompletionResultSchema },
            },
          },
          default: ErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const body = request.body as ChatCompletionRequest & Record<string, unknown>;
      request.verified.model = body.model;
      const verification = body.verification ?? verificationHeader(request);
      if (verification === undefined) {
        const task: GenerateTask = { kind: "answer", messages: textMessages(body.messages) };
        const answer = await relay(request, reply, deps, body, task);
        return sendRelayed(reply, answer);
      }
      const found = chatSources({ ...body, verification }, deps.config.sourcesBudget);
      const { verification: _, ...upstream } = body;
      if (verification.instruct === true) {
        upstream.messages = [
          { role: "system", content: proseSystemPrompt(found.sources) },
          ...(upstream.messages as unknown[]),
        ] as typeof upstream.messages;
      }
      const task: GenerateTask = {
        kind: "prose",
        sources: found.sources,
        messages: textMessages(body.messages),
      };
      const answer = await relay(request, reply, deps, upstream, task);
      const ok = answer.status >= 200 && answer.status < 300;
      if (!ok) return sendRelayed(reply, answer);
      const record = (verdict: string) =>
        deps.recordVerification({
          route: DROP_IN_PATHS.chatCompletions,
          action: verification.action ?? "score",
          verdict,
        });
      if (body.stream === true && isEventStream(answer.headers["content-type"])) {
        const events = verifiedChatStream(answer.body, {
          found,
          verification,
          messages: body.messages,
          signal: request.verified.abortSignal,
          onReport: (report) => record(report.verdict),
        });
        reply.code(200).headers({
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache, no-transform",
          "x-accel-buffering": "no",
        });
        return reply.send(Readable.from(events));
      }
      return verifyCompletion(request, reply, answer, found, verification, body, record);
    },
  );
}

/** Sends the body to the model's gateway (or the local model) with the request's key, trace and abort. */
async function relay(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AppDeps,
  body: Record<string, unknown> & { model: string },
  task: GenerateTask,
): Promise<RelayResponse> {
  const context = operationContext(request, reply, deps);
  if (context.gateway.relay === undefined) {
    throw new ServiceError("internal_error", "The model backend cannot pass Chat Completions calls on.");
  }
  const call = { model: body.model, body, task, apiKey: context.apiKey, signal: context.signal };
  return context.gateway.relay(call);
}

/**
 * The gateway's answer as it sent it: status, content type, rate-limit headers and body, chunk by chunk. A
 * refusal (non-2xx) keeps its status, headers and JSON body, but its `error.message` is the service's message
 * for it (`failure`: create's mapping, with the hint to give a key when the call carried none); a refusal whose
 * body is not a JSON error object gets the service's error envelope instead.
 */
async function sendRelayed(reply: FastifyReply, answer: RelayResponse) {
  reply.code(answer.status).headers(answer.headers);
  if (answer.failure !== undefined) {
    const read = await readBodyWithLimit(answer.body, MAX_GATEWAY_RESPONSE_BYTES);
    return reply.type("application/json").send(refusalBody(read.ok ? read.bytes : undefined, answer.failure));
  }
  if (answer.headers["content-type"] === undefined) reply.type("application/json");
  if (isEventStream(answer.headers["content-type"])) {
    reply.headers({ "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" });
  }
  return reply.send(Readable.from(answer.body));
}

/** A whole `chat.completion` read, its first choice checked, and the report added (or the answer blocked). */
async function verifyCompletion(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: RelayResponse,
  found: ChatSources,
  verification: VerificationRequest,
  body: ChatCompletionRequest,
  record: (verdict: string) => void,
) {
  const read = await readBodyWithLimit(answer.body, MAX_GATEWAY_RESPONSE_BYTES);
  if (!read.ok) {
    throw new ServiceError(
      "gateway_error",
      `The gateway's answer is larger than ${MAX_GATEWAY_RESPONSE_BYTES / (1024 * 1024)} MiB, the most the service checks.`,
    );
  }
  // Ranges count the answer's characters (or its UTF-8 bytes): a bad byte read as U+FFFD would shift them.
  const notUtf8 = notUtf8At(read.bytes);
  if (notUtf8 !== undefined) {
    throw new ServiceError(
      "gateway_error",
      `The gateway's answer is not valid UTF-8: ${notUtf8}, so it could not be checked.`,
    );
  }
  let completion: unknown;
  try {
    completion = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    throw new ServiceError("gateway_error", "The gateway's answer is not JSON, so it could not be checked.");
  }
  if (!isRecord(completion) || !Array.isArray(completion.choices)) {
    throw new ServiceError("gateway_error", "The gateway's answer has no choices to check.");
  }
  const report = await verifyChatAnswer(
    firstChoiceText(completion),
    found,
    verification,
    body.messages,
    request.verified.abortSignal,
  );
  record(report.verdict);
  if (verification.action === "block" && report.verdict === "fail") throw blockedAnswer(report);
  if (verification.action === "remove") {
    const choice = firstChoice(completion.choices);
    if (choice !== undefined && isRecord(choice.message)) choice.message.content = report.text;
  }
  request.verified.coverage = report.coverage;
  return reply
    .code(200)
    .type("application/json")
    .send({ ...completion, verification: report });
}

function refusalBody(bytes: Buffer | undefined, failure: ServiceError): unknown {
  let body: unknown;
  try {
    body = bytes === undefined ? undefined : JSON.parse(bytes.toString("utf8"));
  } catch {
    body = undefined;
  }
  if (!isRecord(body) || !isRecord(body.error)) return failure.toBody();
  return { ...body, error: { ...body.error, message: failure.message } };
}

const validVerification = compileValidator(VerificationRequestSchema);

/**
 * The `verification` object sent as the `x-verification` header (JSON in UTF-8, as a body), for gateways in
 * front of the service that drop body fields they do not know (Portkey forwards a header named in
 * `x-portkey-forward-headers`). Bytes that are not UTF-8 are refused, naming the first bad one.
 */
function verificationHeader(request: FastifyRequest): VerificationRequest | undefined {
  const raw = request.headers[verificationHeaderName];
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (text === undefined) return undefined;
  // Node hands a header's bytes over one character a byte (Latin-1): a source sent as UTF-8 would arrive as
  // mojibake ("cafÃ©") and its claims fail without an error.
  const bytes = Buffer.from(text, "latin1");
  const notUtf8 = notUtf8At(bytes);
  if (notUtf8 !== undefined) {
    throw new ServiceError(
      "invalid_request",
      `The ${verificationHeaderName} header is not valid UTF-8: ${notUtf8}. Send it as UTF-8, or write its non-ASCII characters as JSON escapes ("caf\\u00e9").`,
      { param: verificationHeaderName },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new ServiceError("invalid_request", `The ${verificationHeaderName} header is not JSON.`, {
      param: verificationHeaderName,
    });
  }
  return checkedVerification(parsed, verificationHeaderName);
}

const verificationHeaderName = "x-verification";

/** A `verification` object from elsewhere than the body (a header, a guardrail call), checked; `param` names it. */
export function checkedVerification(value: unknown, param: string): VerificationRequest {
  const checked = validVerification(value);
  if (checked.ok) return checked.value;
  const name = checked.param === undefined ? param : `${param}.${checked.param}`;
  throw new ServiceError("invalid_request", `In "${param}": ${checked.message}`, { param: name });
}
