import { afterEach, describe, expect, it } from "vitest";
import {
  completion,
  completionBody,
  delayed,
  errorReply,
  hangReply,
  htmlReply,
  hugeReply,
  resetReply,
  type ScriptedGateway,
  startScriptedGateway,
  streamReply,
  textReply,
  trickleReply,
} from "./scripted-gateway.js";

let gateway: ScriptedGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

async function start(options?: Parameters<typeof startScriptedGateway>[0]) {
  gateway = await startScriptedGateway(options);
  return gateway;
}

const post = (url: string, body: unknown = { model: "m", messages: [] }, init: RequestInit = {}) =>
  fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k-1", "X-Extra": "yes" },
    body: JSON.stringify(body),
    ...init,
  });

describe("startScriptedGateway", () => {
  it("answers {claims: []} by default and records the call", async () => {
    const { url, calls } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await post(url, { model: "m", messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(completionBody('{"claims": []}'));
    expect(calls).toEqual([
      {
        index: 0,
        method: "POST",
        path: "/v1/chat/completions",
        headers: expect.objectContaining({ authorization: "Bearer k-1", "x-extra": "yes" }),
        body: { model: "m", messages: [{ role: "user", content: "hi" }] },
        closedByClient: false,
      },
    ]);
  });

  it("uses queued replies in order, then the handler", async () => {
    const { url, script } = await start();
    script((call) => `handler saw ${(call.body as { model: string }).model}`);
    script.replyWith(["first", errorReply(500, "second")]);
    const answers = [];
    for (const model of ["a", "b", "c"]) {
      const response = await post(url, { model });
      answers.push([response.status, await response.json()]);
    }
    expect(answers).toEqual([
      [200, completionBody("first")],
      [500, { error: { message: "second", type: "invalid_request_error", code: null, param: null } }],
      [200, completionBody("handler saw c")],
    ]);
  });

  it("encodes object content and lets usage be left out", async () => {
    const { url, script } = await start();
    script(() => completion({ claims: [{ claim: "c" }] }, { finishReason: "length", usage: null }));
    const body = (await (await post(url)).json()) as Record<string, unknown>;
    expect(body.usage).toBeUndefined();
    expect(body.choices).toEqual([
      {
        index: 0,
        finish_reason: "length",
        message: { role: "assistant", content: '{"claims":[{"claim":"c"}]}' },
      },
    ]);
  });

  it("sends text and HTML bodies with their content type and extra headers", async () => {
    const { url, script } = await start();
    script.replyWith([textReply('{"choices": [', { headers: { "x-a": "1" } }), htmlReply(502)]);
    const broken = await post(url);
    expect([broken.status, broken.headers.get("x-a"), await broken.text()]).toEqual([
      200,
      "1",
      '{"choices": [',
    ]);
    const html = await post(url);
    expect(html.status).toBe(502);
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await html.text()).toContain("<h1>502 Bad Gateway</h1>");
  });

  it("delays a reply", async () => {
    const { url, script } = await start();
    script(() => delayed(100, "late"));
    const started = Date.now();
    expect(await (await post(url)).json()).toEqual(completionBody("late"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it("resets the connection before the answer", async () => {
    const { url, script, calls } = await start();
    script(() => resetReply());
    await expect(post(url)).rejects.toThrow(TypeError);
    expect(calls[0]?.closedByClient).toBe(false);
  });

  it("resets the connection mid-body", async () => {
    const { url, script } = await start();
    script(() => resetReply({ partialBody: '{"choices": [{"mess' }));
    const response = await post(url);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it("trickles a body", async () => {
    const { url, script } = await start();
    script(() => trickleReply('{"choices":[]}', { intervalMs: 5, chunkBytes: 3 }));
    expect(await (await post(url)).text()).toBe('{"choices":[]}');
  });

  it("streams a huge body of exactly the asked size, as valid JSON", async () => {
    const { url, script } = await start();
    script(() => hugeReply(300_000, { contentLength: true }));
    const response = await post(url);
    expect(response.headers.get("content-length")).toBe("300000");
    const text = await response.text();
    expect(text.length).toBe(300_000);
    expect(JSON.parse(text)).toMatchObject({ choices: [{ finish_reason: "stop" }] });
  });

  it("records that the client closed a hung call, and waits for it", async () => {
    const { url, script, waitForCalls, waitForClientClose } = await start();
    script(() => hangReply());
    const controller = new AbortController();
    const pending = post(url, undefined, { signal: controller.signal });
    await waitForCalls(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    expect(await waitForClientClose(0)).toMatchObject({ index: 0, closedByClient: true });
  });

  it("counts calls in flight", async () => {
    const { url, script, inFlight, maxInFlight } = await start();
    script(() => delayed(50, "ok"));
    await Promise.all([post(url), post(url), post(url)].map(async (response) => (await response).text()));
    expect([inFlight(), maxInFlight()]).toEqual([0, 3]);
  });

  it("answers other paths with a 404 error and records them", async () => {
    const { url, calls } = await start();
    const response = await fetch(`${url}/models`);
    expect(response.status).toBe(404);
    expect(calls[0]).toMatchObject({ method: "GET", path: "/v1/models", body: undefined });
  });

  it("turns a throwing handler into a 500", async () => {
    const { url, script } = await start();
    script(() => {
      throw new Error("oops");
    });
    const response = await post(url);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: { message: "scripted handler threw: Error: oops" },
    });
  });

  it("closes hung sockets on close()", async () => {
    const started = await start();
    started.script(() => hangReply());
    const outcome = post(started.url).then(
      () => "answered",
      (error: unknown) => error,
    );
    await started.waitForCalls(1);
    expect(started.openSockets()).toBe(1);
    await started.close();
    gateway = undefined;
    expect(started.openSockets()).toBe(0);
    expect(await outcome).toBeInstanceOf(TypeError);
    expect(started.calls[0]?.closedByClient).toBe(false);
  });

  it("closes each connection after its reply when keepAlive is off", async () => {
    const { url, openSockets } = await start({ keepAlive: false });
    const response = await post(url);
    expect(response.headers.get("connection")).toBe("close");
    await response.text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openSockets()).toBe(0);
  });

  it("waits on back-pressure many times in one stream without piling up listeners on the response", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const { url, script } = await start();
      // Each piece is larger than the response's write buffer, so every write waits for a drain: 20 waits.
      const pieces = Array.from(
        { length: 20 },
        (_, index) => `data: ${String(index % 10).repeat(256 * 1024)}\n\n`,
      );
      script(() => streamReply(pieces));
      const body = await (await post(url)).text();
      expect(body).toBe(pieces.join(""));
      // Node reports an emitter past its listener limit on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(
      warnings
        .filter((warning) => warning.name === "MaxListenersExceededWarning")
        .map((warning) => warning.message),
    ).toEqual([]);
  });

  it("times out a wait with a clear message", async () => {
    const { waitForCalls } = await start();
    await expect(waitForCalls(1, 20)).rejects.toThrow("timed out after 20 ms waiting for 1 call(s)");
  });
});
