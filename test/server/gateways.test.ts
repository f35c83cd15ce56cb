import { describe, expect, it } from "vitest";
import { readServeSettings } from "../../src/cli/commands/serve-settings.js";
import { Verified } from "../../src/client/index.js";
import { createModelBackend } from "../../src/models/index.js";
import { createApp } from "../../src/server/index.js";
import { startScriptedGateway } from "../support/scripted-gateway.js";
import { chatBody, claimFrom, claimsContent, closeAfterTest, fixedId, question, report } from "./harness.js";

// Three fake gateways behind one service, configured by a config file as `serve --config` reads it: routes by
// exact id and prefix pattern (with the prefix stripped), each gateway's own key, auth header, headers and
// query, and GET /v1/models.

const founded = claimFrom(report, "Northwind was founded in 2016 in Lyon.");

function configText(openaiURL: string, azureURL: string, ollamaURL: string): string {
  return `{
  // Two gateways; comments and trailing commas are fine.
  "gateways": {
    "openai": {
      "base_url": "${openaiURL}",
      "api_key_env": "TEST_OPENAI_KEY",
      "headers": { "x-team": "search" },
      "token_parameter": "max_completion_tokens",
    },
    "azure": {
      "base_url": "${azureURL}",
      "api_key_env": "TEST_AZURE_KEY",
      "auth": "api-key",
      "query": { "api-version": "2024-10-21" },
    },
    "ollama": {
      "base_url": "${ollamaURL}",
      "auth": "none",
      "headers_env": { "x-proxy-token": "TEST_PROXY_TOKEN" },
      "structured_output": "json_object",
    },
    "unkeyed": { "base_url": "${ollamaURL}", "api_key_env": "TEST_UNSET_KEY" },
  },
  "routes": [
    { "model": "gpt-4o-mini", "gateway": "openai" },
    { "model": "azure/*", "gateway": "azure", "strip_prefix": true },
    { "model": "ollama/*", "gateway": "ollama", "strip_prefix": true },
    { "model": "team/*", "gateway": "ollama" },
    { "model": "needs-key", "gateway": "unkeyed" },
  ],
}`;
}

const env = {
  TEST_OPENAI_KEY: "sk-openai-test",
  TEST_AZURE_KEY: "azure-test-key",
  TEST_PROXY_TOKEN: "proxy-token",
};

async function startTwoGateways(options: { apiKeys?: string[] } = {}) {
  const openai = await startScriptedGateway({ handler: () => claimsContent(founded) });
  const ollama = await startScriptedGateway({ handler: () => claimsContent(founded) });
  const azure = await startScriptedGateway({
    handler: () => claimsContent(founded),
    completionsPath: "/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21",
  });
  closeAfterTest(azure);
  closeAfterTest(openai);
  closeAfterTest(ollama);
  const outcome = readServeSettings(
    { ...env, ...(options.apiKeys ? { VERIFIED_API_KEYS: options.apiKeys.join(",") } : {}) },
    {},
    {
      path: "verified.config.json",
      text: configText(openai.url, azure.url.replace(/\/v1$/, "/openai/deployments/gpt-4o"), ollama.url),
    },
  );
  if (!outcome.ok) throw new Error(outcome.message);
  const app = await createApp({
    gateway: createModelBackend(outcome.settings),
    config: outcome.settings.config,
    newId: fixedId,
  });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  closeAfterTest(app);
  const post = async (model: string, key: string | null = "caller-key") => {
    const response = await fetch(`${url}/v1/verified`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      },
      body: JSON.stringify({ model, messages: question, sources: [report], max_tokens: 300 }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON the service answered.
    return { status: response.status, body: (await response.json()) as any };
  };
  return { openai, azure, ollama, url, post };
}

describe("several gateways behind one service", () => {
  it("sends an exact id to its gateway with that gateway's key, headers and token parameter", async () => {
    const { openai, ollama, post } = await startTwoGateways();

    const result = await post("gpt-4o-mini");

    expect(result.status).toBe(200);
    expect(result.body.model).toBe("gpt-4o-mini");
    expect(ollama.calls).toHaveLength(0);
    expect(openai.calls).toHaveLength(1);
    const call = openai.calls[0];
    expect(call?.path).toBe("/v1/chat/completions");
    // The gateway's own key, never the caller's.
    expect(call?.headers.authorization).toBe("Bearer sk-openai-test");
    expect(call?.headers["x-team"]).toBe("search");
    const body = call?.body as Record<string, unknown>;
    expect(body.model).toBe("gpt-4o-mini");
    expect(body.max_completion_tokens).toBe(300);
    expect(body.max_tokens).toBeUndefined();
  });

  it("strips a prefix when asked, sends no key to a keyless gateway, and asks it for json_object first", async () => {
    const { openai, ollama, post } = await startTwoGateways();

    const result = await post("ollama/llama3.1");

    expect(result.status).toBe(200);
    expect(result.body.model).toBe("ollama/llama3.1");
    expect(openai.calls).toHaveLength(0);
    const call = ollama.calls[0];
    const body = call?.body as Record<string, unknown>;
    expect(body.model).toBe("llama3.1");
    expect(body.response_format).toEqual({ type: "json_object" });
    expect(body.max_tokens).toBe(300);
    expect(call?.headers.authorization).toBeUndefined();
    expect(call?.headers["x-proxy-token"]).toBe("proxy-token");
  });

  it("keeps the prefix of a pattern without strip_prefix", async () => {
    const { ollama, post } = await startTwoGateways();
    expect((await post("team/mistral")).status).toBe(200);
    expect(ollama.calls[0] ? chatBody(ollama.calls[0]).model : undefined).toBe("team/mistral");
  });

  it("sends Azure's api-key header and api-version query on a deployment URL", async () => {
    const { azure, post } = await startTwoGateways();

    expect((await post("azure/gpt-4o")).status).toBe(200);

    const call = azure.calls[0];
    expect(call?.path).toBe("/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21");
    expect(call ? chatBody(call).model : undefined).toBe("gpt-4o");
    expect(call?.headers["api-key"]).toBe("azure-test-key");
    expect(call?.headers.authorization).toBeUndefined();
  });

  it("refuses a model whose gateway's key variable is unset, naming the variable and no value", async () => {
    const { openai, ollama, post } = await startTwoGateways();

    const result = await post("needs-key");

    expect(result.status).toBe(401);
    expect(result.body.error.code).toBe("invalid_key");
    expect(result.body.error.message).toBe(
      'Model "needs-key" goes to gateway "unkeyed", whose key is read from the environment variable TEST_UNSET_KEY, which is not set on the service. Set it and restart the service.',
    );
    expect(openai.calls.length + ollama.calls.length).toBe(0);
  });

  it("answers model_not_found for an id no route matches, pointing at GET /v1/models", async () => {
    const { post } = await startTwoGateways();
    const result = await post("claude-3-haiku");
    expect(result.status).toBe(404);
    expect(result.body.error).toMatchObject({ code: "model_not_found", param: "model" });
    expect(result.body.error.message).toContain("GET /v1/models");
  });

  it("lists the local model and every route on GET /v1/models, to the client as listModels()", async () => {
    const { url } = await startTwoGateways();
    const client = new Verified({ baseURL: url, apiKey: "caller-key" });

    expect(await client.listModels()).toEqual({
      models: [
        { id: "local", match: "exact", gateway: null },
        { id: "gpt-4o-mini", match: "exact", gateway: "openai" },
        { id: "azure/*", match: "prefix", gateway: "azure" },
        { id: "ollama/*", match: "prefix", gateway: "ollama" },
        { id: "team/*", match: "prefix", gateway: "ollama" },
        { id: "needs-key", match: "exact", gateway: "unkeyed" },
      ],
    });
  });

  it("guards GET /v1/models like the operations when the service has keys", async () => {
    const { url } = await startTwoGateways({ apiKeys: ["service-key"] });
    const refused = await fetch(`${url}/v1/models`, { headers: { authorization: "Bearer wrong" } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("invalid_key");
    const allowed = await fetch(`${url}/v1/models`, { headers: { authorization: "Bearer service-key" } });
    expect(allowed.status).toBe(200);
  });
});
