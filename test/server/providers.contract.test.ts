import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readServeSettings } from "../../src/cli/commands/serve-settings.js";
import { createModelBackend } from "../../src/models/index.js";
import { createApp } from "../../src/server/index.js";
import {
  completion,
  jsonReply,
  type RecordedCall,
  type ScriptedGateway,
  type ScriptedReply,
  startScriptedGateway,
} from "../support/scripted-gateway.js";
import { claimFrom, claimsContent, closeAfterTest, fixedId, rangeOf, report } from "./harness.js";

// Each provider of docs/providers.md: the service, configured with the block the page shows for it (its
// origin pointed at a fake on 127.0.0.1), against a fake that behaves as the provider documents: it checks
// the path, query, auth header and key, refuses what the provider refuses with the provider's error shape,
// and answers overflow, rate limits and bad keys as the provider does. Each test checks the request the
// service sent and the answer the caller got.

const founded = claimFrom(report, "Northwind was founded in 2016 in Lyon.");
const providersPage = readFileSync(new URL("../../docs/providers.md", import.meta.url), "utf8");

/** The config block the page shows for `name`. */
function documentedConfig(name: string): string {
  const marker = `<!-- provider-config: ${name} -->\n\`\`\`jsonc\n`;
  const start = providersPage.indexOf(marker);
  if (start < 0) throw new Error(`docs/providers.md has no config for ${name}`);
  const end = providersPage.indexOf("\n```", start + marker.length);
  return providersPage.slice(start + marker.length, end);
}

/** What one provider documents, as the fake plays it. */
interface Provider {
  name: string;
  /** The id the caller sends, and the id the provider must receive. */
  model: string;
  upstreamModel: string;
  /** Path and query of the provider's completions endpoint. */
  path: string;
  /** Variables the documented config reads, with working values. */
  env: Record<string, string>;
  /** The variable whose value the fake takes as the key (a wrong value is refused); none for keyless. */
  keyEnv?: string;
  /** Where the key must arrive. */
  keyHeader: "authorization" | "api-key" | "none";
  /** Other headers the provider needs, with their values. */
  headers: Record<string, string>;
  /** The field a caller's max_tokens must arrive as. */
  tokenField: "max_tokens" | "max_completion_tokens";
  /** The response_format type of the first call; undefined when none is sent. */
  responseFormat: "json_schema" | "json_object" | undefined;
  /** What the provider refuses of a call the service may send (besides key and path), or undefined. */
  refuse?: (body: Record<string, unknown>) => ScriptedReply | undefined;
  /** The provider's answer to a wrong key. */
  badKey?: ScriptedReply;
  /** The provider's answer to a prompt over the context window; undefined when it has none. */
  overflow?: ScriptedReply;
  /** The provider's rate-limit answer, and the Retry-After the caller should get. */
  rateLimit?: { reply: ScriptedReply; retryAfter: string | null };
  /** A model of the provider that refuses json_schema, with the response_format types sent in turn. */
  fallback?: { model: string; formats: (string | undefined)[] };
}

const openAIError = (status: number, message: string, code: string | null, type: string, param?: string) =>
  jsonReply({ error: { message, type, param: param ?? null, code } }, { status });

const openAIOverflow = openAIError(
  400,
  "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
  "context_length_exceeded",
  "invalid_request_error",
  "messages",
);

/** OpenAI's refusal of max_tokens by reasoning models. */
function refuseMaxTokens(body: Record<string, unknown>): ScriptedReply | undefined {
  if (body.max_tokens === undefined) return undefined;
  return openAIError(
    400,
    "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    "unsupported_parameter",
    "invalid_request_error",
    "max_tokens",
  );
}

/** OpenAI's refusal of json_schema by a model without Structured Outputs. */
function refuseJsonSchemaFor(model: string) {
  return (body: Record<string, unknown>): ScriptedReply | undefined =>
    body.model === model && (body.response_format as { type?: string } | undefined)?.type === "json_schema"
      ? openAIError(
          400,
          "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
          null,
          "invalid_request_error",
          "response_format",
        )
      : undefined;
}

const openAIBadKeyBody = {
  error: {
    message:
      "Incorrect API key provided: wrong-key. You can find your API key at https://platform.openai.com/account/api-keys.",
    type: "invalid_request_error",
    param: null,
    code: "invalid_api_key",
  },
};
const openAIBadKey = jsonReply(openAIBadKeyBody, { status: 401 });

const providers: Provider[] = [
  {
    name: "openai",
    model: "gpt-4o-mini",
    upstreamModel: "gpt-4o-mini",
    path: "/v1/chat/completions",
    env: { OPENAI_API_KEY: "sk-openai" },
    keyEnv: "OPENAI_API_KEY",
    keyHeader: "authorization",
    headers: {},
    tokenField: "max_completion_tokens",
    responseFormat: "json_schema",
    refuse: (body) => refuseMaxTokens(body) ?? refuseJsonSchemaFor("gpt-3.5-turbo")(body),
    badKey: openAIBadKey,
    overflow: openAIOverflow,
    rateLimit: {
      reply: jsonReply(
        {
          error: {
            message: "Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3.",
            type: "requests",
            param: null,
            code: "rate_limit_exceeded",
          },
        },
        { status: 429, headers: { "retry-after": "20" } },
      ),
      retryAfter: "20",
    },
    fallback: { model: "openai/gpt-3.5-turbo", formats: ["json_schema", "json_object"] },
  },
  {
    name: "azure",
    model: "azure/gpt-4o-mini",
    upstreamModel: "gpt-4o-mini",
    path: "/openai/deployments/gpt-4o-mini/chat/completions?api-version=2024-10-21",
    env: { AZURE_OPENAI_API_KEY: "azure-key" },
    keyEnv: "AZURE_OPENAI_API_KEY",
    keyHeader: "api-key",
    headers: {},
    tokenField: "max_completion_tokens",
    responseFormat: "json_schema",
    refuse: refuseMaxTokens,
    badKey: jsonReply(
      {
        error: {
          code: "401",
          message:
            "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.",
        },
      },
      { status: 401 },
    ),
    overflow: openAIOverflow,
    rateLimit: {
      reply: jsonReply(
        {
          error: {
            code: "429",
            message:
              "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds.",
          },
        },
        { status: 429, headers: { "retry-after": "6" } },
      ),
      retryAfter: "6",
    },
  },
  {
    name: "ollama",
    model: "ollama/llama3.1",
    upstreamModel: "llama3.1",
    path: "/v1/chat/completions",
    env: {},
    keyHeader: "none",
    headers: {},
    tokenField: "max_tokens",
    responseFormat: "json_schema",
    refuse: (body) =>
      body.model === "llama3.1"
        ? undefined
        : openAIError(
            404,
            `model "${String(body.model)}" not found, try pulling it first`,
            null,
            "api_error",
          ),
  },
  {
    name: "vllm",
    model: "meta-llama/Llama-3.1-8B-Instruct",
    upstreamModel: "meta-llama/Llama-3.1-8B-Instruct",
    path: "/v1/chat/completions",
    env: { VLLM_API_KEY: "token-abc123" },
    keyEnv: "VLLM_API_KEY",
    keyHeader: "authorization",
    headers: {},
    tokenField: "max_tokens",
    responseFormat: "json_schema",
    badKey: jsonReply({ error: "Unauthorized" }, { status: 401 }),
    overflow: jsonReply(
      {
        object: "error",
        message:
          "This model's maximum context length is 8192 tokens. However, you requested 9304 tokens (8804 in the messages, 500 in the completion). Please reduce the length of the messages or completion.",
        type: "BadRequestError",
        param: null,
        code: 400,
      },
      { status: 400 },
    ),
  },
  {
    name: "litellm",
    model: "claude-3-5-haiku",
    upstreamModel: "claude-3-5-haiku",
    path: "/v1/chat/completions",
    env: { LITELLM_API_KEY: "sk-litellm-virtual" },
    keyEnv: "LITELLM_API_KEY",
    keyHeader: "authorization",
    headers: {},
    tokenField: "max_tokens",
    responseFormat: "json_schema",
    refuse: (body) =>
      body.model === "bedrock-llama" &&
      (body.response_format as { type?: string } | undefined)?.type === "json_schema"
        ? jsonReply(
            {
              error: {
                message:
                  "litellm.UnsupportedParamsError: bedrock does not support parameters: ['response_format'], for model=meta.llama3-8b. To drop these, set `litellm.drop_params=True` or for proxy: `litellm_settings: drop_params: true`.",
                type: "None",
                param: null,
                code: "400",
              },
            },
            { status: 400 },
          )
        : undefined,
    badKey: jsonReply(
      {
        error: {
          message: "Authentication Error, Invalid proxy server token passed.",
          type: "auth_error",
          param: "None",
          code: "401",
        },
      },
      { status: 401 },
    ),
    overflow: jsonReply(
      {
        error: {
          message:
            "litellm.ContextWindowExceededError: litellm.BadRequestError: AnthropicException - prompt is too long: 215000 tokens > 200000 maximum",
          type: null,
          param: null,
          code: "400",
        },
      },
      { status: 400 },
    ),
    rateLimit: {
      reply: jsonReply(
        {
          error: {
            message:
              "litellm.RateLimitError: AnthropicException - Number of request tokens has exceeded your per-minute rate limit",
            type: "throttling_error",
            param: null,
            code: "429",
          },
        },
        { status: 429, headers: { "retry-after": "30" } },
      ),
      retryAfter: "30",
    },
    fallback: { model: "bedrock-llama", formats: ["json_schema", "json_object"] },
  },
  {
    name: "portkey",
    model: "gpt-4o-mini",
    upstreamModel: "gpt-4o-mini",
    path: "/v1/chat/completions",
    env: { OPENAI_API_KEY: "sk-openai", PORTKEY_API_KEY: "pk-portkey" },
    keyEnv: "OPENAI_API_KEY",
    keyHeader: "authorization",
    headers: { "x-portkey-provider": "openai", "x-portkey-api-key": "pk-portkey" },
    tokenField: "max_tokens",
    responseFormat: "json_schema",
    badKey: jsonReply({ ...openAIBadKeyBody, provider: "openai" }, { status: 401 }),
    overflow: jsonReply(
      {
        error: {
          message:
            "openai error: This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        },
        provider: "openai",
      },
      { status: 400 },
    ),
    rateLimit: {
      reply: jsonReply(
        {
          error: {
            message: "openai error: Rate limit reached",
            type: "requests",
            param: null,
            code: "rate_limit_exceeded",
          },
          provider: "openai",
        },
        { status: 429, headers: { "retry-after": "2" } },
      ),
      retryAfter: "2",
    },
  },
  {
    name: "openrouter",
    model: "openrouter/openai/gpt-4o-mini",
    upstreamModel: "openai/gpt-4o-mini",
    path: "/api/v1/chat/completions",
    env: { OPENROUTER_API_KEY: "sk-or-v1-test" },
    keyEnv: "OPENROUTER_API_KEY",
    keyHeader: "authorization",
    headers: { "http-referer": "https://example.com", "x-title": "verified" },
    tokenField: "max_tokens",
    responseFormat: "json_schema",
    badKey: jsonReply({ error: { code: 401, message: "No auth credentials found" } }, { status: 401 }),
    overflow: jsonReply(
      {
        error: {
          code: 400,
          message:
            "This endpoint's maximum context length is 128000 tokens. However, you requested about 131072 tokens (130572 of text input, 500 in the output). Please reduce the length of either one.",
          metadata: { provider_name: "OpenAI" },
        },
      },
      { status: 400 },
    ),
    // OpenRouter sends an error that happens after the model started with HTTP 200.
    rateLimit: {
      reply: jsonReply({ error: { code: 429, message: "Rate limit exceeded: free-models-per-min." } }),
      retryAfter: null,
    },
  },
  {
    name: "anthropic",
    model: "claude-sonnet-4-5",
    upstreamModel: "claude-sonnet-4-5",
    path: "/v1/chat/completions",
    env: { ANTHROPIC_API_KEY: "sk-ant-test" },
    keyEnv: "ANTHROPIC_API_KEY",
    keyHeader: "authorization",
    headers: {},
    tokenField: "max_tokens",
    responseFormat: undefined,
    badKey: jsonReply(
      { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
      { status: 401 },
    ),
    overflow: jsonReply(
      {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: "prompt is too long: 215000 tokens > 200000 maximum",
        },
      },
      { status: 400 },
    ),
    rateLimit: {
      reply: jsonReply(
        {
          type: "error",
          error: {
            type: "rate_limit_error",
            message: "Number of request tokens has exceeded your per-minute rate limit",
          },
        },
        { status: 429, headers: { "retry-after": "15" } },
      ),
      retryAfter: "15",
    },
  },
  {
    name: "gemini",
    model: "gemini-2.5-flash",
    upstreamModel: "gemini-2.5-flash",
    path: "/v1beta/openai/chat/completions",
    env: { GEMINI_API_KEY: "gemini-key" },
    keyEnv: "GEMINI_API_KEY",
    keyHeader: "authorization",
    headers: {},
    tokenField: "max_tokens",
    responseFormat: "json_schema",
    badKey: jsonReply(
      [
        {
          error: {
            code: 400,
            message: "API key not valid. Please pass a valid API key.",
            status: "INVALID_ARGUMENT",
          },
        },
      ],
      { status: 400 },
    ),
    overflow: jsonReply(
      [
        {
          error: {
            code: 400,
            message:
              "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
            status: "INVALID_ARGUMENT",
          },
        },
      ],
      { status: 400 },
    ),
    rateLimit: {
      reply: jsonReply(
        [
          {
            error: {
              code: 429,
              message: "Resource has been exhausted (e.g. check quota).",
              status: "RESOURCE_EXHAUSTED",
            },
          },
        ],
        { status: 429 },
      ),
      retryAfter: null,
    },
  },
];

/** The text of the first user message of a call: the caller's question, which steers the fake. */
function question(call: RecordedCall): string {
  const messages = (call.body as { messages?: { role: string; content: string }[] }).messages ?? [];
  return messages
    .filter((message) => message.role === "user")
    .map((message) => message.content)
    .join("\n");
}

/** The fake of `provider`: key, path and headers checked; refusals, overflow and rate limit as documented. */
async function startFake(provider: Provider): Promise<ScriptedGateway> {
  const fake = await startScriptedGateway({
    completionsPath: provider.path,
    handler: (call) => {
      const body = call.body as Record<string, unknown>;
      const expectedKey = provider.keyEnv === undefined ? undefined : provider.env[provider.keyEnv];
      const sentKey =
        provider.keyHeader === "api-key"
          ? call.headers["api-key"]
          : call.headers.authorization?.replace(/^Bearer /, "");
      if (expectedKey !== undefined && sentKey !== expectedKey) {
        return provider.badKey ?? openAIBadKey;
      }
      const refused = provider.refuse?.(body);
      if (refused !== undefined) return refused;
      const asked = question(call);
      if (asked.includes("OVERFLOW") && provider.overflow) return provider.overflow;
      if (asked.includes("RATE") && provider.rateLimit) return provider.rateLimit.reply;
      return completion(claimsContent(founded));
    },
  });
  closeAfterTest(fake);
  return fake;
}

/** The service, configured with the page's block for `provider` (origin → the fake), listening on loopback. */
async function startServiceFor(provider: Provider, fake: ScriptedGateway, env = provider.env) {
  const text = documentedConfig(provider.name);
  const documentedURL = /"base_url": "([^"]+)"/.exec(text)?.[1] ?? "";
  // The origin as written (URL would lower-case a host such as YOUR-RESOURCE).
  const documentedOrigin = documentedURL.slice(
    0,
    documentedURL.indexOf("/", documentedURL.indexOf("//") + 2),
  );
  const configured = text.replace(documentedOrigin, new URL(fake.url).origin);
  if (configured === text) throw new Error(`no base_url origin to replace in ${provider.name}'s config`);
  const outcome = readServeSettings(env, {}, { path: "verified.config.json", text: configured });
  if (!outcome.ok) throw new Error(outcome.message);
  const app = await createApp({
    gateway: createModelBackend(outcome.settings),
    config: outcome.settings.config,
    newId: fixedId,
  });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  closeAfterTest(app);
  return async (model: string, content: string) => {
    const response = await fetch(`${url}/v1/verified`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer caller-key" },
      body: JSON.stringify({
        model,
        messages: [{ role: "user", content }],
        sources: [report],
        max_tokens: 500,
      }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON the service answered.
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
}

const responseFormatOf = (call: RecordedCall | undefined) =>
  ((call?.body as Record<string, unknown> | undefined)?.response_format as { type?: string } | undefined)
    ?.type;

describe.each(providers)("provider $name, as docs/providers.md configures it", (provider) => {
  it("gets the path, key, headers, token field and response_format it documents; the caller gets citations", async () => {
    const fake = await startFake(provider);
    const ask = await startServiceFor(provider, fake);

    const result = await ask(provider.model, "When was Northwind founded?");

    expect(result.body.error).toBeUndefined();
    expect(result.status).toBe(200);
    expect(result.body.citations).toEqual([
      {
        claim: founded.claim,
        quote: founded.quote,
        source: "report",
        range: rangeOf(report, founded.quote),
      },
    ]);
    expect(fake.calls).toHaveLength(1);
    const call = fake.calls[0];
    expect(call?.path).toBe(provider.path);
    const body = call?.body as Record<string, unknown>;
    expect(body.model).toBe(provider.upstreamModel);
    expect(body[provider.tokenField]).toBe(500);
    expect(Object.keys(body).filter((key) => key.startsWith("max_"))).toEqual([provider.tokenField]);
    expect(responseFormatOf(call)).toBe(provider.responseFormat);
    for (const [name, value] of Object.entries(provider.headers))
      expect(call?.headers[name], name).toBe(value);
    const key = provider.keyEnv === undefined ? undefined : provider.env[provider.keyEnv];
    if (provider.keyHeader === "api-key") {
      expect(call?.headers["api-key"]).toBe(key);
      expect(call?.headers.authorization).toBeUndefined();
    } else if (provider.keyHeader === "authorization") {
      expect(call?.headers.authorization).toBe(`Bearer ${key}`);
    } else {
      expect(call?.headers.authorization).toBeUndefined();
      expect(call?.headers["api-key"]).toBeUndefined();
    }
  });

  it.runIf(provider.overflow !== undefined)(
    "maps its context-length overflow to 400 invalid_request on sources",
    async () => {
      const fake = await startFake(provider);
      const ask = await startServiceFor(provider, fake);

      const result = await ask(provider.model, "OVERFLOW: summarise everything");

      expect(result.status).toBe(400);
      expect(result.body.error).toMatchObject({ code: "invalid_request", param: "sources" });
      expect(result.body.error.message).toMatch(
        /^The prompt is longer than the model's context window \(HTTP 400/,
      );
      expect(fake.calls).toHaveLength(1);
    },
  );

  it.runIf(provider.rateLimit !== undefined)("maps its rate limit to 429 rate_limited", async () => {
    const fake = await startFake(provider);
    const ask = await startServiceFor(provider, fake);

    const result = await ask(provider.model, "RATE: again");

    expect(result.status).toBe(429);
    expect(result.body.error.code).toBe("rate_limited");
    expect(result.headers.get("retry-after")).toBe(provider.rateLimit?.retryAfter);
    // Not retried by the service: the caller decides when to come back.
    expect(fake.calls).toHaveLength(1);
  });

  it.runIf(provider.keyEnv !== undefined)(
    "maps its refusal of a wrong key to 401 invalid_key, without echoing the key",
    async () => {
      const fake = await startFake(provider);
      const keyEnv = provider.keyEnv ?? "";
      const ask = await startServiceFor(provider, fake, { ...provider.env, [keyEnv]: "wrong-key" });

      const result = await ask(provider.model, "When was Northwind founded?");

      expect(result.status).toBe(401);
      expect(result.body.error.code).toBe("invalid_key");
      expect(JSON.stringify(result.body)).not.toContain("wrong-key");
    },
  );

  it.runIf(provider.fallback !== undefined)(
    "falls back from json_schema when a model refuses it, and the caller still gets citations",
    async () => {
      const fake = await startFake(provider);
      const ask = await startServiceFor(provider, fake);
      const fallback = provider.fallback ?? { model: "", formats: [] };

      const result = await ask(fallback.model, "When was Northwind founded?");

      expect(result.status).toBe(200);
      expect(result.body.citations).toHaveLength(1);
      expect(fake.calls.map(responseFormatOf)).toEqual(fallback.formats);
    },
  );
});
