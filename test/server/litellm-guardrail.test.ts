import { describe, expect, it } from "vitest";
import { MAX_GUARDRAIL_TEXTS } from "../../src/limits.js";
import { question, report, startWithoutGateway } from "./harness.js";

// LiteLLM's generic guardrail API, against its documented contract (LiteLLM itself does not run here): the
// proxy POSTs {texts, input_type, structured_messages, litellm_call_id, request_data,
// additional_provider_specific_params} to {api_base}/beta/litellm_basic_guardrail_api and acts on
// {action: NONE | BLOCKED | GUARDRAIL_INTERVENED, blocked_reason, texts}.

const path = "/v1/guardrails/litellm/beta/litellm_basic_guardrail_api";
const grounded = "Northwind was founded in 2016 in Lyon [1].";
const ungrounded = "Northwind was founded in 2016 in Lyon [1]. It has offices in Tokyo [1].";
/** The chat as LiteLLM hands it over: the question, the retrieval tool's call and its result. */
const structuredMessages = [
  ...question,
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: "{}" } }],
  },
  { role: "tool", tool_call_id: "call_1", content: report.text },
];

function call(texts: string[], extra: Record<string, unknown> = {}) {
  return {
    texts,
    input_type: "response",
    structured_messages: structuredMessages,
    litellm_call_id: "call-123",
    litellm_trace_id: "trace-1",
    request_data: { user_api_key_hash: "hash" },
    additional_provider_specific_params: {},
    ...extra,
  };
}

describe("POST /v1/guardrails/litellm/beta/litellm_basic_guardrail_api", () => {
  it.each([
    ["a grounded answer", call([grounded]), { action: "NONE" }],
    [
      "a request-side call, which holds no answer",
      { ...call(["When was Northwind founded?"]), input_type: "request" },
      { action: "NONE" },
    ],
    [
      "an ungrounded answer",
      call([ungrounded]),
      {
        action: "BLOCKED",
        blocked_reason:
          'Verification failed: 1 claim not supported by the sources ("It has offices in Tokyo.": entity_not_found).',
      },
    ],
    [
      "an ungrounded answer with action remove in the guardrail's params",
      call([ungrounded], { additional_provider_specific_params: { action: "remove" } }),
      { action: "GUARDRAIL_INTERVENED", texts: [grounded] },
    ],
    [
      "an answer checked against sources given in the guardrail's params, with a coverage threshold",
      call(["Northwind was founded in 2016 in Lyon [faq]. It has offices in Tokyo [faq]."], {
        structured_messages: [...question],
        additional_provider_specific_params: {
          sources: [{ id: "faq", text: report.text }],
          min_coverage: 0.5,
          unrelated: 1,
        },
      }),
      { action: "NONE" },
    ],
  ])("answers %s", async (_name, body, expected) => {
    const service = await startWithoutGateway();
    const response = await service.post(path, body);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expected);
  });

  it("refuses a response-side call with no sources anywhere as no_sources", async () => {
    const service = await startWithoutGateway();
    const response = await service.post(path, call([grounded], { structured_messages: [...question] }));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "no_sources", param: "verification.sources" });
  });

  it("refuses a call of more texts than it checks, naming texts", async () => {
    const service = await startWithoutGateway();
    const texts = Array.from({ length: MAX_GUARDRAIL_TEXTS + 1 }, () => grounded);
    const response = await service.post(path, call(texts));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        type: "invalid_request",
        code: "invalid_request",
        message: `"texts" holds more than ${MAX_GUARDRAIL_TEXTS} items.`,
        param: "texts",
        request_id: expect.stringMatching(/^req_/),
      },
    });
    expect((await service.post(path, call(texts.slice(1)))).body).toEqual({ action: "NONE" });
  });
});
