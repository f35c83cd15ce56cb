import { describe, expect, it } from "vitest";
import { ApiError, createApi } from "./api.js";

interface Call {
  url: string;
  init: RequestInit;
}

function scriptedFetch(status: number, body: string) {
  const calls: Call[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

const createBody = { model: "local", messages: [{ role: "user" as const, content: "q" }], sources: [] };

describe("createApi", () => {
  it("posts JSON with the bearer key to each endpoint", async () => {
    const { calls, fetch } = scriptedFetch(200, "{}");
    const api = createApi({ getKey: () => " sk-1 ", fetch, baseUrl: "http://x" });
    await api.create(createBody);
    await api.extract({ model: "local", sources: [], schema: { a: "b" } });
    await api.evaluate({ model: "local", cases: [] });
    expect(calls.map((call) => call.url)).toEqual([
      "http://x/v1/verified",
      "http://x/v1/verified/extract",
      "http://x/v1/verified/eval",
    ]);
    expect(calls[0]?.init).toEqual({
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-1" },
      body: JSON.stringify(createBody),
    });
  });

  it("sends no Authorization header when no key was entered", async () => {
    const { calls, fetch } = scriptedFetch(200, "{}");
    await createApi({ getKey: () => "", fetch }).create(createBody);
    expect(calls[0]?.init.headers).toEqual({ "content-type": "application/json" });
  });

  it("throws the service's error body as an ApiError", async () => {
    const body = {
      error: {
        type: "ungrounded",
        code: "ungrounded",
        message: "No claim.",
        unsupported: [{ claim: "c", reason: "quote_not_found" }],
      },
    };
    const { fetch } = scriptedFetch(422, JSON.stringify(body));
    const error = await createApi({ getKey: () => "k", fetch })
      .create(createBody)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect({ ...(error as ApiError), message: (error as ApiError).message }).toEqual({
      name: "ApiError",
      status: 422,
      type: "ungrounded",
      message: "No claim.",
      param: undefined,
      unsupported: [{ claim: "c", reason: "quote_not_found" }],
    });
  });

  it("says what came back when the body is not an error body", async () => {
    const { fetch } = scriptedFetch(502, "Bad Gateway");
    const error = await createApi({ getKey: () => "k", fetch })
      .create(createBody)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 502,
      type: "unexpected_response",
      message: 'The service answered HTTP 502 with "Bad Gateway".',
    });
  });

  it("turns a network failure into status 0", async () => {
    const fetch = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof globalThis.fetch;
    const error = await createApi({ getKey: () => "k", fetch })
      .create(createBody)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 0,
      type: "network_error",
      message: "Could not reach the service (Failed to fetch). Is it still running?",
    });
  });
});

describe("createApi: createStream", () => {
  const streamFetch = (text: string) =>
    (async () =>
      new Response(text, {
        status: 200,
        headers: { "content-type": "text/event-stream; charset=utf-8" },
      })) as unknown as typeof globalThis.fetch;
  const citation = { claim: "c", quote: "q", source: "s", range: [0, 1] };

  it("hands each progress event over and resolves with done", async () => {
    const done = { id: "vfd_1", citations: [citation] };
    const text = `: keep-alive\n\nevent: claim\ndata: ${JSON.stringify(citation)}\n\nevent: attempt\ndata: {"attempt":2}\n\nevent: done\ndata: ${JSON.stringify(done)}\n\n`;
    const seen: unknown[] = [];

    const result = await createApi({ getKey: () => "", fetch: streamFetch(text) }).createStream(
      createBody,
      (event) => seen.push(event),
    );

    expect(result).toEqual(done);
    expect(seen).toEqual([
      { event: "claim", data: citation },
      { event: "attempt", data: { attempt: 2 } },
    ]);
  });

  it("throws the error event as an ApiError", async () => {
    const error = { error: { type: "ungrounded", code: "ungrounded", message: "None.", unsupported: [] } };
    const api = createApi({
      getKey: () => "",
      fetch: streamFetch(`event: error\ndata: ${JSON.stringify(error)}\n\n`),
    });

    await expect(api.createStream(createBody, () => undefined)).rejects.toMatchObject({
      name: "ApiError",
      type: "ungrounded",
      message: "None.",
    });
  });
});
