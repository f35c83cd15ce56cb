import type { FastifyInstance, FastifyRequest } from "fastify";
import { DROP_IN_PATHS } from "../../api-paths.js";
import { MAX_CHECK_BODY_BYTES } from "../../limits.js";
import { firstChoice } from "../../models/index.js";
import { chatSources, firstChoiceText, verifyChatAnswer, verifyChatAnswers } from "../../service/index.js";
import { isRecord } from "../../util.js";
import {
  ErrorBodySchema,
  type LiteLLMGuardrailRequest,
  LiteLLMGuardrailRequestSchema,
  type LiteLLMGuardrailResult,
  LiteLLMGuardrailResultSchema,
  type PortkeyWebhookRequest,
  PortkeyWebhookRequestSchema,
  PortkeyWebhookResultSchema,
  type VerificationRequest,
  VerificationRequestSchema,
} from "../../wire/index.js";
import type { AppDeps } from "../config.js";
import { callerSignal } from "../request-state.js";
import { checkedVerification } from "./chat-completions.js";

/**
 * The guardrail endpoints gateways call on every answer: Portkey's `default.webhook` and LiteLLM's generic
 * guardrail API. Each checks the model's answer against the sources the request carried, as
 * `/v1/chat/completions` does with `verification`.
 */
export function registerGuardrailRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: PortkeyWebhookRequest }>(
    DROP_IN_PATHS.portkeyGuardrail,
    {
      bodyLimit: MAX_CHECK_BODY_BYTES,
      schema: {
        summary: "Portkey webhook guardrail",
        description:
          "Portkey's `default.webhook` guardrail: `verdict` false when the answer fails verification. Options in the query or `x-verified-*` headers: `min_coverage`, `action` (`remove` adds `transformedData`), `mode`, `check_numbers`. See docs/drop-in.md.",
        body: PortkeyWebhookRequestSchema,
        response: { 200: PortkeyWebhookResultSchema, default: ErrorBodySchema },
      },
      // Portkey reads an error's body only when its content type is exactly application/json.
      onSend: async (_request, reply, payload) => {
        if (String(reply.getHeader("content-type") ?? "").startsWith("application/json"))
          reply.header("content-type", "application/json");
        return payload;
      },
    },
    async (request, reply) => {
      const body = request.body;
      const requestJson = isRecord(body.request?.json) ? body.request.json : undefined;
      const completion = isRecord(body.response?.json) ? body.response.json : undefined;
      if (body.eventType === "beforeRequestHook" || completion === undefined || requestJson === undefined) {
        // Before the model answers, or a streamed answer Portkey does not hand over: nothing to check.
        return {
          verdict: true,
          data: {
            explanation:
              body.eventType === "beforeRequestHook"
                ? "Nothing to verify before the model answers; use the guardrail on the output."
                : "The call holds no chat.completion to verify (a streamed answer, or a request that is not a chat completion).",
          },
        };
      }
      const verification = { ...nestedVerification(requestJson), ...guardrailOptions(request) };
      const found = chatSources({ ...requestJson, verification }, deps.config.sourcesBudget);
      const report = await verifyChatAnswer(
        firstChoiceText(completion),
        found,
        verification,
        requestJson.messages,
        callerSignal(request, reply),
      );
      deps.recordVerification({
        route: DROP_IN_PATHS.portkeyGuardrail,
        action: "portkey",
        verdict: report.verdict,
      });
      const pass = report.verdict === "pass";
      if (verification.action !== "remove" || report.unsupported.length === 0)
        return { verdict: pass, data: report };
      const choices = Array.isArray(completion.choices) ? completion.choices : [];
      const first = firstChoice(choices);
      const transformed = {
        ...completion,
        choices: choices.map((choice) =>
          first !== undefined && choice === first && isRecord(first.message)
            ? { ...first, message: { ...first.message, content: report.text } }
            : choice,
        ),
      };
      return { verdict: pass, data: report, transformedData: { response: { json: transformed } } };
    },
  );

  app.post<{ Body: LiteLLMGuardrailRequest }>(
    DROP_IN_PATHS.litellmGuardrail,
    {
      bodyLimit: MAX_CHECK_BODY_BYTES,
      schema: {
        summary: "LiteLLM generic guardrail",
        description:
          "LiteLLM's generic guardrail API (`api_base` is the path before `/beta/litellm_basic_guardrail_api`). A response-side call's answer is checked against the tool messages of `structured_messages`, or `sources` in `additional_provider_specific_params`. See docs/drop-in.md.",
        body: LiteLLMGuardrailRequestSchema,
        response: { 200: LiteLLMGuardrailResultSchema, default: ErrorBodySchema },
      },
    },
    async (request, reply): Promise<LiteLLMGuardrailResult> => {
      const body = request.body;
      const texts = body.texts ?? [];
      if (body.input_type !== "response" || texts.length === 0) return { action: "NONE" };
      const params = isRecord(body.additional_provider_specific_params)
        ? body.additional_provider_specific_params
        : {};
      const verification = {
        ...knownVerification(params, "additional_provider_specific_params"),
        ...guardrailOptions(request),
      };
      const found = chatSources(
        { messages: body.structured_messages ?? [], verification },
        deps.config.sourcesBudget,
      );
      const reports = await verifyChatAnswers(
        texts,
        found,
        verification,
        body.structured_messages,
        callerSignal(request, reply),
      );
      const failed = reports.filter((report) => report.verdict === "fail");
      deps.recordVerification({
        route: DROP_IN_PATHS.litellmGuardrail,
        action: "litellm",
        verdict: failed.length === 0 ? "pass" : "fail",
      });
      if (failed.length === 0) return { action: "NONE" };
      if (verification.action === "remove") {
        return { action: "GUARDRAIL_INTERVENED", texts: reports.map((report) => report.text) };
      }
      const unsupported = failed.flatMap((report) => report.unsupported);
      return {
        action: "BLOCKED",
        blocked_reason: `Verification failed: ${unsupported.length} claim${unsupported.length === 1 ? "" : "s"} not supported by the sources (${unsupported
          .slice(0, 3)
          .map((entry) => `"${entry.claim.slice(0, 80)}": ${entry.reason}`)
          .join("; ")}).`,
      };
    },
  );
}

/** The request's own `verification` object, checked against its schema. */
function nestedVerification(holder: Record<string, unknown>): VerificationRequest {
  return holder.verification === undefined
    ? {}
    : checkedVerification(holder.verification, "request.json.verification");
}

/** The verification options among an object's fields (the rest ignored), checked against the schema. */
function knownVerification(holder: Record<string, unknown>, param: string): VerificationRequest {
  const known = Object.keys(VerificationRequestSchema.properties);
  return checkedVerification(
    Object.fromEntries(Object.entries(holder).filter(([name]) => known.includes(name))),
    param,
  );
}

/** Options a gateway's guardrail configuration sets in the URL's query or as `x-verified-*` headers. */
const optionNames = ["min_coverage", "action", "mode", "check_numbers"] as const;

function guardrailOptions(request: FastifyRequest): VerificationRequest {
  const query = isRecord(request.query) ? request.query : {};
  const options: Record<string, unknown> = {};
  for (const name of optionNames) {
    const header = request.headers[`x-verified-${name.replace("_", "-")}`];
    const raw = query[name] ?? (Array.isArray(header) ? header[0] : header);
    if (typeof raw !== "string") continue;
    options[name] =
      name === "min_coverage" ? Number(raw) : raw === "true" ? true : raw === "false" ? false : raw;
  }
  return checkedVerification(options, "query");
}
