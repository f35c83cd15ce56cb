import { describe, expect, it } from "vitest";
import {
  errorReply,
  hangReply,
  htmlReply,
  resetReply,
  type ScriptedAnswer,
  startScriptedGateway,
  textReply,
} from "../support/scripted-gateway.js";
import { startService } from "../support/start-service.js";
import {
  claimsContent,
  closeAfterTest,
  question,
  report,
  startWithGateway,
  startWithoutGateway,
} from "./harness.js";

// The rows of the error table that come from the gateway or the model: each as a whole error body, with
// the number of calls the service made.

const createBody = { model: "gpt-test", messages: question, sources: [report] };

const error = (type: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { type, code: type, message, request_id: expect.any(String), ...extra },
});

describe("gateway failures", () => {
  it.each<{
    name: string;
    replies: ScriptedAnswer[];
    status: number;
    body: unknown;
    calls: number;
    retryAfter?: string;
  }>([
    {
      name: "402 is insufficient_quota",
      replies: [errorReply(402, "Payment required")],
      status: 402,
      body: error(
        "insufficient_quota",
        "The gateway reports exhausted credits or quota (HTTP 402: Payment required).",
      ),
      calls: 1,
    },
    {
      name: "429 insufficient_quota is insufficient_quota, not rate_limited",
      replies: [
        errorReply(429, "You exceeded your current quota, please check your plan and billing details.", {
          code: "insufficient_quota",
          type: "insufficient_quota",
        }),
      ],
      status: 402,
      body: error(
        "insufficient_quota",
        "The gateway reports exhausted credits or quota (HTTP 429 [insufficient_quota]: You exceeded your current quota, please check your plan and billing details).",
      ),
      calls: 1,
    },
    {
      name: "a budget error (LiteLLM) is insufficient_quota",
      replies: [
        errorReply(400, "Budget has been exceeded! Current cost: 12.5, Max budget: 10.0", {
          type: "budget_exceeded",
        }),
      ],
      status: 402,
      body: error(
        "insufficient_quota",
        "The gateway reports exhausted credits or quota (HTTP 400: Budget has been exceeded! Current cost: 12.5, Max budget: 10.0).",
      ),
      calls: 1,
    },
    {
      name: "404 unknown model is model_not_found",
      replies: [
        errorReply(404, "The model `gpt-test` does not exist or you do not have access to it.", {
          code: "model_not_found",
        }),
      ],
      status: 404,
      body: error(
        "model_not_found",
        'The gateway does not know model "gpt-test" (HTTP 404 [model_not_found]: The model `gpt-test` does not exist or you do not have access to it); check the model id, and that the gateway URL includes any /v1 prefix the gateway needs.',
      ),
      calls: 1,
    },
    {
      name: "429 is rate_limited with Retry-After forwarded",
      replies: [
        errorReply(429, "Rate limit reached for requests", {
          code: "rate_limit_exceeded",
          headers: { "retry-after": "7" },
        }),
      ],
      status: 429,
      body: error(
        "rate_limited",
        "The gateway rate-limited the call (HTTP 429 [rate_limit_exceeded]: Rate limit reached for requests); retry after 7 s.",
      ),
      calls: 1,
      retryAfter: "7",
    },
    {
      name: "unparseable output twice is extraction_failed",
      replies: ["Sure! The answer is 42.", "I said 42."],
      status: 502,
      body: error(
        "extraction_failed",
        "The model's output was unusable after one re-ask: the model's output is not valid JSON. Check that the model follows the output contract in docs/api.md.",
      ),
      calls: 2,
    },
    {
      name: "wrong-shaped output twice is extraction_failed",
      replies: ['{"answer": "42"}', '{"claims": [{"claim": "x"}]}'],
      status: 502,
      body: error(
        "extraction_failed",
        'The model\'s output was unusable after one re-ask: claims[0] needs string "quote" and "source". Check that the model follows the output contract in docs/api.md.',
      ),
      calls: 2,
    },
    {
      name: "5xx three times (two retries) is gateway_error",
      replies: [
        errorReply(500, "boom", { type: "server_error" }),
        errorReply(503, "overloaded"),
        errorReply(500, "boom again", { type: "server_error" }),
      ],
      status: 502,
      body: error(
        "gateway_error",
        "The model gateway failed 3 times; the last time it answered HTTP 500: boom again.",
      ),
      calls: 3,
    },
    {
      name: "an HTML error page three times is gateway_error",
      replies: [htmlReply(502), htmlReply(502), htmlReply(502)],
      status: 502,
      body: error(
        "gateway_error",
        "The model gateway failed 3 times; the last time it answered HTTP 502: an HTML error page.",
      ),
      calls: 3,
    },
    {
      name: "a reset connection three times is gateway_error",
      replies: [resetReply(), resetReply(), resetReply()],
      status: 502,
      body: error(
        "gateway_error",
        "The model gateway failed 3 times; the last time it could not be reached (read ECONNRESET).",
      ),
      calls: 3,
    },
    {
      name: "a 5xx then a good answer succeeds",
      replies: [
        errorReply(503, "overloaded"),
        claimsContent({ claim: "Lyon", quote: "Lyon", source: "report" }),
      ],
      status: 200,
      body: expect.objectContaining({
        text: "Lyon [report]",
        usage: expect.objectContaining({ model_calls: 1 }),
      }),
      calls: 2,
    },
    {
      name: "a broken completion body three times is gateway_error",
      replies: [textReply('{"choices": ['), textReply('{"choices": ['), textReply('{"choices": [')],
      status: 502,
      body: error(
        "gateway_error",
        expect.stringMatching(/^The model gateway failed 3 times; the last time it /),
      ),
      calls: 3,
    },
  ])("$name", async ({ replies, status, body, calls, retryAfter }) => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith(replies);

    const response = await service.post("/v1/verified", createBody);

    expect(response.status).toBe(status);
    expect(response.body).toEqual(body);
    expect(gateway.calls).toHaveLength(calls);
    expect(response.headers.get("retry-after")).toBe(retryAfter ?? null);
  });

  it("a refused connection is gateway_error", async () => {
    const closed = await startScriptedGateway();
    await closed.close();
    const service = await startService({ gatewayURL: closed.url });
    closeAfterTest(service);

    const response = await service.post("/v1/verified", createBody);

    expect(response.status).toBe(502);
    expect(response.body).toEqual(
      error(
        "gateway_error",
        `The model gateway failed 3 times; the last time it could not be reached (connect ECONNREFUSED ${new URL(closed.url).host}).`,
      ),
    );
  });

  it("no answer within the timeout is 504 gateway_timeout, and the call is abandoned", async () => {
    const { gateway, service } = await startWithGateway({ gatewayTimeoutMs: 500 });
    // The gateway never answers: only the timeout can end the call.
    gateway.script.replyWith([hangReply()]);

    const response = await service.post("/v1/verified", createBody);

    expect(response.status).toBe(504);
    expect(response.body).toEqual(
      error("gateway_timeout", "The model gateway did not answer within 500 ms."),
    );
    await gateway.waitForClientClose(0);
  });

  it("model_not_found when no gateway is configured, saying how to fix it", async () => {
    const service = await startWithoutGateway();

    const response = await service.post("/v1/verified", createBody);

    expect(response.status).toBe(404);
    expect(response.body).toEqual(
      error(
        "model_not_found",
        'Model "gpt-test" needs a model gateway, and none is configured. Start the service with --gateway-url (or VERIFIED_GATEWAY_URL) pointing at an OpenAI-compatible endpoint, or use model "local".',
        { param: "model" },
      ),
    );
  });
});
