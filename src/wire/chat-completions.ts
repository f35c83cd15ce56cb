import { type Static, Type } from "@sinclair/typebox";
import { MAX_ANSWER_CHARS, MAX_GUARDRAIL_TEXTS } from "../limits.js";
import {
  CheckNumbersSchema,
  CitationSchema,
  ModeSchema,
  PartialPolicySchema,
  PartialTermSchema,
  SourceSchema,
  UnsupportedClaimSchema,
} from "./schemas.js";

// The OpenAI-compatible front door (`POST /v1/chat/completions`) and the guardrail endpoints. The Chat
// Completions body is open: every field the caller sends is passed on, unknown ones included; only the
// `verification` object is the service's own, and it is closed like every other request object.

const open = { additionalProperties: true } as const;
const closed = { additionalProperties: false } as const;

/** How the answer is treated once checked. */
export const VerificationActionSchema = Type.Union(
  [Type.Literal("score"), Type.Literal("remove"), Type.Literal("block")],
  {
    description:
      "`score` (default): the answer as the model wrote it, with the report beside it. `remove`: unsupported sentences cut from the content. `block`: an answer that fails is a 422 `ungrounded` whose `error.verification` is the report.",
  },
);
export type VerificationAction = Static<typeof VerificationActionSchema>;

/** The `verification` request object: asks for the answer to be checked against sources. */
export const VerificationRequestSchema = Type.Object(
  {
    sources: Type.Optional(
      Type.Array(SourceSchema, {
        description:
          "The sources to check against. Without them, the request's `documents` (Groq's shape), else its tool messages.",
      }),
    ),
    mode: Type.Optional(ModeSchema),
    check_numbers: Type.Optional(CheckNumbersSchema),
    explain: Type.Optional(Type.Boolean({ description: "Every dropped claim says why in `detail`." })),
    partial: Type.Optional(PartialPolicySchema),
    action: Type.Optional(VerificationActionSchema),
    min_coverage: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description:
          "The answer passes when its coverage reaches this. Absent: it passes when no claim is unsupported.",
      }),
    ),
    instruct: Type.Optional(
      Type.Boolean({
        description:
          "Add the citation instruction and the sources to the system prompt, so a model that was never told writes `[id]` markers.",
      }),
    ),
    offsets: Type.Optional(
      Type.Union([Type.Literal("utf16"), Type.Literal("codepoint"), Type.Literal("utf8")], {
        description: "The unit of every `range` and `answer_range` of the report, as in create.",
      }),
    ),
    hold: Type.Optional(
      Type.Boolean({
        description:
          "Streamed: hold each sentence until it is checked, so no unsupported sentence is ever shown (with `remove`, dropped ones are never sent).",
      }),
    ),
  },
  { ...closed, description: "Check the answer against sources, by code. See docs/drop-in.md." },
);
export type VerificationRequest = Static<typeof VerificationRequestSchema>;

/** A Chat Completions request as OpenAI defines it, with the optional `verification` object. */
export const ChatCompletionRequestSchema = Type.Object(
  {
    model: Type.String({ minLength: 1, description: "As for create: `local` or a routed model id." }),
    messages: Type.Array(
      Type.Object(
        { role: Type.String({ minLength: 1 }) },
        { ...open, description: "An OpenAI message; passed on as sent." },
      ),
      { minItems: 1 },
    ),
    stream: Type.Optional(Type.Boolean()),
    verification: Type.Optional(VerificationRequestSchema),
  },
  { ...open, description: "Every other field is passed to the gateway as sent." },
);
export type ChatCompletionRequest = Static<typeof ChatCompletionRequestSchema>;

/** Where the sources of a verification came from. */
export const SourcesFromSchema = Type.Union(
  [Type.Literal("verification"), Type.Literal("documents"), Type.Literal("tool_messages")],
  {
    description:
      "`verification` (`verification.sources`), `documents` (the request's `documents`), or `tool_messages` (its tool-role messages).",
  },
);

/** The verification report: the top-level `verification` of a `chat.completion` and of the last chunk. */
export const VerificationReportSchema = Type.Object(
  {
    verdict: Type.Union([Type.Literal("pass"), Type.Literal("fail")], {
      description:
        "`pass` when no claim is unsupported (with `min_coverage`: when coverage reaches it), else `fail`.",
    }),
    action: VerificationActionSchema,
    sources_from: SourcesFromSchema,
    text: Type.String({ description: "The answer with its unsupported sentences removed." }),
    citations: Type.Array(CitationSchema),
    unsupported: Type.Array(UnsupportedClaimSchema),
    partial: Type.Array(PartialTermSchema, {
      description:
        "Each content word of a kept, partially supported claim that none of its spans holds, with its `answer_range` (as in check).",
    }),
    coverage: Type.Number(),
    abstained: Type.Boolean({ description: "True when `min_coverage` is set and coverage is below it." }),
  },
  { description: "The check of the first choice's content against the sources (docs/drop-in.md)." },
);
export type VerificationReport = Static<typeof VerificationReportSchema>;

/** What `POST /v1/chat/completions` answers: the gateway's `chat.completion`, with `verification` when asked. */
export const ChatCompletionResultSchema = Type.Object(
  { verification: Type.Optional(VerificationReportSchema) },
  { ...open, description: "The gateway's answer as it sent it; with verification, one more field." },
);

/** Portkey's `default.webhook` guardrail call. */
export const PortkeyWebhookRequestSchema = Type.Object(
  {
    request: Type.Optional(Type.Object({ json: Type.Optional(Type.Unknown()) }, open)),
    response: Type.Optional(Type.Object({ json: Type.Optional(Type.Unknown()) }, open)),
    eventType: Type.Optional(Type.String()),
  },
  { ...open, description: "What Portkey's webhook guardrail POSTs: the request and response of one call." },
);
export type PortkeyWebhookRequest = Static<typeof PortkeyWebhookRequestSchema>;

export const PortkeyWebhookResultSchema = Type.Object({
  verdict: Type.Boolean(),
  data: Type.Union([VerificationReportSchema, Type.Object({ explanation: Type.String() })]),
  transformedData: Type.Optional(
    Type.Object({ response: Type.Object({ json: Type.Unknown() }) }, { description: "With `remove`." }),
  ),
});

/** LiteLLM's generic guardrail API call (`POST {api_base}/beta/litellm_basic_guardrail_api`). */
export const LiteLLMGuardrailRequestSchema = Type.Object(
  {
    texts: Type.Optional(
      Type.Array(Type.String({ maxLength: MAX_ANSWER_CHARS }), { maxItems: MAX_GUARDRAIL_TEXTS }),
    ),
    input_type: Type.Optional(Type.String()),
    structured_messages: Type.Optional(Type.Array(Type.Object({}, open))),
    litellm_call_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    request_data: Type.Optional(Type.Unknown()),
    additional_provider_specific_params: Type.Optional(Type.Unknown()),
  },
  { ...open, description: "LiteLLM's generic guardrail request." },
);
export type LiteLLMGuardrailRequest = Static<typeof LiteLLMGuardrailRequestSchema>;

export const LiteLLMGuardrailResultSchema = Type.Object({
  action: Type.Union([Type.Literal("NONE"), Type.Literal("BLOCKED"), Type.Literal("GUARDRAIL_INTERVENED")]),
  blocked_reason: Type.Optional(Type.String()),
  texts: Type.Optional(Type.Array(Type.String())),
});
export type LiteLLMGuardrailResult = Static<typeof LiteLLMGuardrailResultSchema>;
