import { describe, expect, it } from "vitest";
import { jsonReply } from "../support/scripted-gateway.js";
import { question, report, startWithGateway } from "./harness.js";

// A prompt longer than the model's context window is the caller's input being too long: a 400
// invalid_request naming the cause, never a 502 and never retried. One case per provider's error shape.

const overflows = [
  {
    provider: "OpenAI",
    status: 400,
    body: {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
  },
  {
    provider: "vLLM",
    status: 400,
    body: {
      object: "error",
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      type: "BadRequestError",
      param: null,
      code: 400,
    },
  },
  {
    provider: "LiteLLM",
    status: 400,
    body: {
      error: {
        message:
          "litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError: OpenAIException - This model's maximum context length is 8192 tokens.",
        type: null,
        param: null,
        code: "400",
      },
    },
  },
  {
    provider: "Anthropic (OpenAI-compatible)",
    status: 400,
    body: {
      error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
    },
  },
  {
    provider: "Gemini (OpenAI-compatible)",
    status: 400,
    body: [
      {
        error: {
          code: 400,
          message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
          status: "INVALID_ARGUMENT",
        },
      },
    ],
  },
];

describe("context-length overflow", () => {
  it.each(overflows)(
    "$provider: 400 invalid_request with a clear message, one call",
    async ({ status, body }) => {
      const { gateway, service } = await startWithGateway();
      gateway.script(() => jsonReply(body, { status }));
      const response = await service.post("/v1/verified", {
        model: "gpt-test",
        messages: question,
        sources: [report],
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        type: "invalid_request",
        param: "sources",
        message: expect.stringMatching(/^The prompt is longer than the model's context window \(HTTP 400/),
      });
      expect(response.body.error.message).toMatch(/Send fewer or shorter sources or messages/);
      expect(gateway.calls).toHaveLength(1);
    },
  );
});
