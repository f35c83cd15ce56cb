import { connect } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_SECONDS } from "../../src/limits.js";
import {
  completion,
  errorReply,
  jsonReply,
  type ScriptedGateway,
  startScriptedGateway,
} from "../support/scripted-gateway.js";
import { type RunningService, startService } from "../support/start-service.js";
import { expectRegistryError } from "./expect-response.js";
import { createRawClient, jsonPost, type RawClient } from "./raw-client.js";

// Rows a and c–m of issue 11 ("Bounded by design"), each driven over HTTP against the real service and a
// scripted gateway. Rows b, f and g (the event loop, timeouts and shutdown) are in local-model-turns.test.ts
// and shutdown.test.ts. Each test here failed on the main branch before the issue was fixed.

const source = {
  id: "report",
  text: "Northwind was founded in 2016 in Lyon. The company employs 240 people.",
};
const ask = (model = "gpt-test") => ({
  model,
  messages: [{ role: "user", content: "Where was Northwind founded?" }],
  sources: [source],
});
const lyon = { claims: [{ claim: "Founded in Lyon.", quote: "Lyon", source: "report" }] };

let gateway: ScriptedGateway;
let service: RunningService;
let client: RawClient;

beforeAll(async () => {
  gateway = await startScriptedGateway();
  service = await startService({ gatewayURL: gateway.url, captureLogs: true, gatewayTimeoutMs: 10_000 });
  client = createRawClient(service.url);
});

afterAll(async () => {
  await client?.close();
  await service?.close();
  await gateway?.close();
});

beforeEach(() => {
  gateway.script(() => completion(lyon));
});

/** Log lines written from now on, as their JSON text. */
function logsFrom(start: number): string[] {
  return service.logs.slice(start).map((line) => JSON.stringify(line));
}

describe("(a) model output that made the code-fence regex backtrack", () => {
  it('"```" then a megabyte of spaces: extraction_failed after exactly one re-ask', async () => {
    // The old /```(?:json)?\s*\n?([\s\S]*?)```/ took O(n²) steps here: hours for 1 MB (8 s for 150,000).
    // The reading's steps are counted in src/service/structured-output.test.ts; here the whole service
    // answers, within a bound (20 s) hours above today's and far below the old regex's.
    const calls = gateway.calls.length;
    gateway.script(() => completion(`\`\`\`${" ".repeat(1_000_000)}x`));
    const response = await client.send(jsonPost("/v1/verified", ask(), { timeoutMs: 20_000 }));
    expect(response.status).toBe(502);
    expectRegistryError(response.status, response.json);
    expect(response.json.error.type).toBe("extraction_failed");
    expect(gateway.calls.length - calls).toBe(2);
  }, 30_000);
});

describe("(c, d) memory bounded by what is accepted", () => {
  it("21 million `{}` cases (60 MiB) are refused at case 201, before any case is built", async () => {
    const body = `{"model":"gpt-test","cases":[${"{},".repeat(21_000_000)}{}]}`;
    const response = await client.send(jsonPost("/v1/verified/eval", body, { timeoutMs: 60_000 }));
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      error: {
        type: "too_many_cases",
        request_id: expect.any(String),
        code: "too_many_cases",
        message:
          '"cases" holds more than 200 cases; the limit is 200 per request. Page larger datasets (the client\'s evalAll does).',
        param: "cases",
      },
    });
  }, 90_000);

  it("an eval case with 100,000 one-character sources is refused at source 10,001", async () => {
    const sources = Array.from({ length: 100_000 }, (_, index) => ({ id: `s${index}`, text: "x" }));
    const cases = Array.from({ length: 2 }, () => ({
      messages: [{ role: "user", content: "x?" }],
      sources,
    }));
    const response = await client.send(jsonPost("/v1/verified/eval", { model: "local", cases }));
    expect(response.status).toBe(400);
    expectRegistryError(response.status, response.json);
    expect(response.json.error).toMatchObject({ type: "sources_too_large", param: "cases[0].sources" });
    expect(response.json.error.message).toContain("10,000");
  }, 60_000);

  it("create with 10,001 sources is refused; 10,000 are accepted", async () => {
    const sources = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ id: `s${index}`, text: `river ${index}` }));
    const refused = await client.send(
      jsonPost("/v1/verified", { ...ask("local"), sources: sources(10_001) }),
    );
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ type: "sources_too_large", param: "sources" });
    const accepted = await client.send(
      jsonPost("/v1/verified", {
        ...ask("local"),
        messages: [{ role: "user", content: "Which river is 7777?" }],
        sources: sources(10_000),
      }),
    );
    expect(accepted.status).toBe(200);
  }, 60_000);
});

describe("(e) secrets are masked before gateway text is cut", () => {
  it("a key echoed after 280 characters of an error message never reaches the caller, even in part", async () => {
    const key = "sk-proj-Zq8TxW4mLk2Rv9Ny6Hb3Jc7Pd5Fg1Ks0Aa";
    gateway.script(() => errorReply(400, `${"x ".repeat(140)}your key ${key} is not allowed`));
    const response = await client.send(jsonPost("/v1/verified", ask(), { key }));
    expect(response.status).toBe(502);
    for (let start = 0; start + 4 <= key.length; start++) {
      expect(response.text).not.toContain(key.slice(start, start + 4));
    }
  });

  it("property: a random key planted anywhere in error bodies of any length leaks no 4 key characters", async () => {
    // Key characters come from an alphabet the filler never uses, and 4-grams of the key that the service's
    // own words contain anyway (checked on the same body without the key) are not counted as leaks.
    const keyArbitrary = fc
      .array(fc.constantFrom(..."ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789"), {
        minLength: 20,
        maxLength: 64,
      })
      .map((chars) => chars.join(""));
    const fillerArbitrary = fc
      .array(fc.constantFrom(" ", ".", ",", "!", "é", "ß", "—", "\n", "_", "-", ":", "="), {
        maxLength: 3_000,
      })
      .map((chars) => chars.join(""));
    const statusArbitrary = fc.constantFrom(400, 401, 402, 403, 404, 422, 429, 500, 503);
    await fc.assert(
      fc.asyncProperty(
        keyArbitrary,
        fillerArbitrary,
        fc.nat(),
        statusArbitrary,
        fc.boolean(),
        async (key, filler, offsetSeed, status, asJson) => {
          const offset = filler.length === 0 ? 0 : offsetSeed % (filler.length + 1);
          const planted = `${filler.slice(0, offset)}${key}${filler.slice(offset)}`;
          const control = `${filler.slice(0, offset)}${"~".repeat(key.length)}${filler.slice(offset)}`;
          const answer = async (text: string) => {
            gateway.script(() =>
              asJson
                ? errorReply(status, text)
                : jsonReply(text, { status, headers: { "retry-after": "1" } }),
            );
            const before = service.logs.length;
            const response = await client.send(jsonPost("/v1/verified", ask(), { key }));
            return `${response.text}\n${JSON.stringify(response.headers)}\n${logsFrom(before).join("\n")}`;
          };
          const withKey = await answer(planted);
          const withoutKey = await answer(control);
          for (let start = 0; start + 4 <= key.length; start++) {
            const gram = key.slice(start, start + 4);
            if (withKey.includes(gram)) expect(withoutKey, `leaked ${gram} of ${key}`).toContain(gram);
          }
        },
      ),
      { numRuns: 40, seed: 11 },
    );
  }, 120_000);
});

describe("(h) logs stay small", () => {
  it("a 1 MB model id costs at most 2 KB of log per request", async () => {
    const model = `m${"x".repeat(1_000_000)}`;
    for (const [path, body] of [
      ["/v1/verified", ask(model)],
      ["/v1/verified/eval", { model, cases: [{ messages: ask().messages, sources: [source] }] }],
      ["/v1/verified/extract", { model, sources: [source], schema: { city: "the city" } }],
    ] as const) {
      const before = service.logs.length;
      const response = await client.send(jsonPost(path, body));
      // Some answer 200, extract reads the scripted claims as unusable (502): the log line is what counts.
      expect([200, 502]).toContain(response.status);
      const written = logsFrom(before);
      expect(written.length).toBeGreaterThan(0);
      expect(Buffer.byteLength(written.join("\n"))).toBeLessThan(2_048);
      expect(written.join("\n")).toContain(`m${"x".repeat(199)}…`);
    }
  });
});

describe("(i) Retry-After is clamped", () => {
  it("a gateway's Retry-After of 1e23 seconds is forwarded as the cap", async () => {
    gateway.script(() =>
      errorReply(429, "slow down", { headers: { "retry-after": "100000000000000000000000" } }),
    );
    const response = await client.send(jsonPost("/v1/verified", ask()));
    expect(response.status).toBe(429);
    expect(response.headers["retry-after"]).toBe(String(MAX_RETRY_AFTER_SECONDS));
    expect(response.json.error.message).toContain(`retry after ${MAX_RETRY_AFTER_SECONDS} s`);
  });
});

/** Sends raw bytes on a fresh connection and resolves with everything the service wrote back. */
function rawExchange(bytes: string): Promise<string> {
  const { hostname, port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.write(bytes);
    // Half-close after sending: the service answers and closes its side.
    socket.end();
  });
}

function bodyOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
}

describe("(j) framework errors get the registry envelope", () => {
  it("a path with bad percent-encoding", async () => {
    const response = await client.send({ method: "GET", path: "/v1/verified%zz" });
    expect(response.status).toBe(400);
    expectRegistryError(response.status, response.json);
    expect(response.text).not.toMatch(/FST_|fastify|statusCode/i);
  });

  it("a request without a Host header", async () => {
    const answer = await rawExchange("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(answer.startsWith("HTTP/1.1 400 ")).toBe(true);
    const body = bodyOf(answer) as { error: { type: string } };
    expectRegistryError(400, body);
    expect(body.error.type).toBe("invalid_request");
  });
});

describe("(k) reflected field names are cut", () => {
  it("a 3 MB unknown field name costs a few hundred bytes of error body", async () => {
    const name = "f".repeat(3_000_000);
    const response = await client.send(jsonPost("/v1/verified", { ...ask(), [name]: 1 }));
    expect(response.status).toBe(400);
    expectRegistryError(response.status, response.json);
    expect(response.text.length).toBeLessThan(2_000);
    expect(response.json.error.param).toBe(`${"f".repeat(200)}…`);
  });
});

describe("(l) gateway usage counts are validated", () => {
  it.each([
    { name: "null", usage: { prompt_tokens: null, completion_tokens: 5, total_tokens: 15 } },
    { name: "negative", usage: { prompt_tokens: -10, completion_tokens: 5, total_tokens: 15 } },
    { name: "fractional", usage: { prompt_tokens: 1.5, completion_tokens: 5, total_tokens: 15 } },
    { name: "huge", usage: { prompt_tokens: 1e300, completion_tokens: 5, total_tokens: 15 } },
  ])("$name prompt_tokens is left out (0) and named in the log line", async ({ usage }) => {
    gateway.script(() => completion(lyon, { usage: usage as never }));
    const before = service.logs.length;
    const response = await client.send(jsonPost("/v1/verified", ask()));
    expect(response.status).toBe(200);
    expect(response.json.usage).toEqual({
      prompt_tokens: 0,
      completion_tokens: 5,
      total_tokens: 15,
      model_calls: 1,
    });
    const line = service.logs.slice(before).find((each) => each.msg === "request");
    expect(line?.invalid_usage).toEqual(["prompt_tokens"]);
  });
});

describe("(m) `constructor` keys", () => {
  it("a plain constructor key is an ordinary name, as the README now says; constructor.prototype is refused", async () => {
    const plain = await client.send(
      jsonPost("/v1/verified/extract", {
        model: "local",
        sources: [{ id: "r", text: "Constructor: Bouygues" }],
        schema: { constructor: "the constructor" },
      }),
    );
    expect(plain.status).toBe(200);
    expect(plain.json.fields.constructor.value).toBe("Bouygues");

    const polluting = await client.send(
      jsonPost("/v1/verified", '{"constructor": {"prototype": {"admin": true}}, "model": "m"}'),
    );
    expect(polluting.status).toBe(400);
    expectRegistryError(polluting.status, polluting.json);
    expect(polluting.json.error.message).toContain('"constructor": {"prototype"');
  });
});
