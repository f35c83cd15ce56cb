import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completion, type ScriptedGateway, startScriptedGateway } from "../support/scripted-gateway.js";
import { portkeySuite, type RunningPortkey, startPortkeyGateway } from "../support/start-portkey-gateway.js";
import { closeAfterTest, question, report, startWithGateway, startWithoutGateway } from "./harness.js";

// The drop-in through a real Portkey AI Gateway (@portkey-ai/gateway, started on loopback): Portkey routing
// an app's calls to the service as a custom host, and Portkey calling the service's webhook as its output
// guardrail on calls it sends to the scripted upstream itself.

const { server: portkeyServer, title } = portkeySuite("drop-in through @portkey-ai/gateway");

const grounded = "Northwind was founded in 2016 in Lyon [report].";
const ungrounded = "Northwind was founded in 2016 in Lyon [report]. It has offices in Tokyo [report].";

describe.skipIf(portkeyServer === undefined)(title, () => {
  let portkey: RunningPortkey;

  beforeAll(async () => {
    portkey = await startPortkeyGateway(portkeyServer ?? "");
  }, 40_000);

  afterAll(async () => {
    await portkey?.close();
  });

  it("routes an openai-package call to the service as a custom host: tool messages are the sources, x-verification the options", async () => {
    const { gateway, service } = await startWithGateway();
    const answer = "Northwind was founded in 2016 in Lyon [1]. It has offices in Tokyo [1].";
    gateway.script.replyWith([completion(answer)]);
    const openai = new OpenAI({
      baseURL: portkey.url,
      apiKey: "sk-portkey-test",
      maxRetries: 0,
      defaultHeaders: {
        "x-portkey-provider": "openai",
        "x-portkey-custom-host": `${service.url}/v1`,
        // Portkey drops body fields it does not know; it forwards the headers this names.
        "x-portkey-forward-headers": "x-verification",
        "x-verification": JSON.stringify({ action: "score" }),
      },
    });
    const result = await openai.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        ...question,
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "call_1", content: report.text },
      ],
    });
    expect(result.choices[0]?.message.content, portkey.output()).toBe(answer);
    expect((result as unknown as { verification: unknown }).verification).toMatchObject({
      verdict: "fail",
      sources_from: "tool_messages",
      coverage: 0.5,
    });
    expect(gateway.calls[0]?.headers.authorization).toBe("Bearer sk-portkey-test");
  });

  describe("the service's webhook as Portkey's output guardrail", () => {
    let upstream: ScriptedGateway;
    beforeAll(async () => {
      upstream = await startScriptedGateway();
    });
    afterAll(async () => {
      await upstream?.close();
    });

    /**
     * An app's call through Portkey with the webhook as output guardrail. The webhook is reached through a
     * recorder, so each test also sees what the service answered Portkey.
     */
    async function callThroughGuardrail(answer: string, options: { deny: boolean; query?: string }) {
      const service = await startWithoutGateway();
      const answers: Record<string, unknown>[] = [];
      const recorder = createServer((incoming, outgoing) => {
        const parts: Buffer[] = [];
        incoming.on("data", (part: Buffer) => parts.push(part));
        incoming.on("end", async () => {
          const forwarded = await fetch(`${service.url}${incoming.url}`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              authorization: incoming.headers.authorization ?? "",
            },
            body: Buffer.concat(parts),
          });
          const text = await forwarded.text();
          answers.push(JSON.parse(text) as Record<string, unknown>);
          outgoing.writeHead(forwarded.status, {
            "content-type": forwarded.headers.get("content-type") ?? "",
          });
          outgoing.end(text);
        });
      });
      await new Promise<void>((resolve) => recorder.listen(0, "127.0.0.1", resolve));
      closeAfterTest({ close: () => new Promise<void>((resolve) => recorder.close(() => resolve())) });
      const port = (recorder.address() as AddressInfo).port;
      upstream.script.replyWith([completion(answer)]);
      const config = {
        provider: "openai",
        api_key: "sk-upstream",
        custom_host: upstream.url,
        output_guardrails: [
          {
            "default.webhook": {
              webhookURL: `http://127.0.0.1:${port}/v1/guardrails/portkey${options.query ?? ""}`,
              headers: { authorization: "Bearer sk-webhook" },
            },
            deny: options.deny,
          },
        ],
      };
      const response = await fetch(`${portkey.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-portkey-config": JSON.stringify(config) },
        body: JSON.stringify({
          model: "gpt-4o-mini",
          messages: [...question],
          verification: { sources: [report] },
        }),
      });
      return { response, answers };
    }

    it("passes a grounded answer with status 200", async () => {
      const { response, answers } = await callThroughGuardrail(grounded, { deny: false });
      expect(response.status, portkey.output()).toBe(200);
      const body = (await response.json()) as { choices: { message: { content: string } }[] };
      expect(body.choices[0]?.message.content).toBe(grounded);
      expect(answers).toEqual([
        { verdict: true, data: expect.objectContaining({ verdict: "pass", coverage: 1 }) },
      ]);
    });

    it("denies an ungrounded answer with status 446 when the guardrail denies", async () => {
      const { response, answers } = await callThroughGuardrail(ungrounded, { deny: true });
      expect(response.status, portkey.output()).toBe(446);
      expect(((await response.json()) as { error: { type: string } }).error.type).toBe("hooks_failed");
      expect(answers[0]).toMatchObject({ verdict: false, data: { verdict: "fail", coverage: 0.5 } });
    });

    // Portkey 1.15.2's Node server answers a failed guardrail without deny with 500, not 246: its response
    // keeps the upstream fetch's immutable headers (Hono's node Response) and then appends to them. So these
    // two assert what the service answered Portkey, and that Portkey did not pass the answer.
    it("fails an ungrounded answer: verdict false with the report, and Portkey does not pass it", async () => {
      const { response, answers } = await callThroughGuardrail(ungrounded, { deny: false });
      expect(response.status, portkey.output()).not.toBe(200);
      expect(answers).toEqual([
        {
          verdict: false,
          data: expect.objectContaining({
            verdict: "fail",
            unsupported: [expect.objectContaining({ claim: "It has offices in Tokyo." })],
          }),
        },
      ]);
    });

    it("with action=remove in the webhook URL, hands Portkey the answer without its unsupported sentences", async () => {
      const { answers } = await callThroughGuardrail(ungrounded, { deny: false, query: "?action=remove" });
      const transformed = answers[0]?.transformedData as {
        response: { json: { choices: { message: { content: string } }[] } };
      };
      expect(transformed.response.json.choices[0]?.message.content).toBe(grounded);
    });

    it("with min_coverage in the webhook URL, passes an answer whose coverage reaches it", async () => {
      const { response, answers } = await callThroughGuardrail(ungrounded, {
        deny: true,
        query: "?min_coverage=0.5",
      });
      expect(response.status, portkey.output()).toBe(200);
      expect(answers[0]).toMatchObject({ verdict: true, data: { coverage: 0.5 } });
    });
  });
});
