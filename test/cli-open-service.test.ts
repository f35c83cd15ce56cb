import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBinary } from "./support/run-binary.js";
import { type ScriptedGateway, startScriptedGateway } from "./support/scripted-gateway.js";
import { type RunningService, startService } from "./support/start-service.js";

// A first run: `verified serve` with no VERIFIED_API_KEYS (an open service) and the CLI with no --api-key
// and no VERIFIED_API_KEY. The local model needs no key, so every command works; a gateway model is
// refused naming the key it needs.

const fixtures = fileURLToPath(new URL("./fixtures/cli/", import.meta.url));
const noKey = { VERIFIED_API_KEY: "", VERIFIED_BASE_URL: "" };

let service: RunningService;
let gateway: ScriptedGateway;

beforeAll(async () => {
  gateway = await startScriptedGateway();
  service = await startService({ gatewayURL: gateway.url });
});

afterAll(async () => {
  await service.close();
  await gateway.close();
});

describe("the CLI against an open service with no key", () => {
  it.each([
    {
      command: "ask",
      args: [
        "ask",
        "How many days do I have to return an item for a refund?",
        "--source",
        join(fixtures, "policy.txt"),
      ],
      expected: { model: "local", grounded: true },
    },
    {
      command: "extract",
      args: [
        "extract",
        "--source",
        join(fixtures, "contract.txt"),
        "--field",
        "customer=the customer's name",
      ],
      expected: { model: "local", fields: { customer: expect.any(Object) } },
    },
    {
      command: "eval",
      args: ["eval", join(fixtures, "eval-high.jsonl"), "--min-coverage", "0.5"],
      expected: { aggregate: expect.objectContaining({ errored: 0 }) },
    },
  ])("$command answers on the local model and exits 0", async ({ args, expected }) => {
    const run = await runBinary([...args, "--base-url", service.url, "--json"], { env: noKey });

    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("invalid_key");
    expect(JSON.parse(run.stdout)).toMatchObject(expected);
  });

  it("says which key a gateway model needs, and exits 2", async () => {
    const run = await runBinary(
      [
        "ask",
        "q",
        "--source",
        join(fixtures, "policy.txt"),
        "--model",
        "gpt-test",
        "--base-url",
        service.url,
      ],
      { env: noKey },
    );

    expect(gateway.calls).toHaveLength(0);
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'verified ask: Model "gpt-test" is called through the model gateway with your API key: send it as "Authorization: Bearer <key>". Model "local" needs no key. Pass --api-key or set VERIFIED_API_KEY (invalid_key).\n',
    });
  });
});
