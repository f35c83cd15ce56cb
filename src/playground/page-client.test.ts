import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectionError, InternalServerError, UngroundedError } from "../client/index.js";
import { pageClient, serviceBaseUrl } from "./page-client.js";

interface Call {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that answers every call with `status` and `body`, recording what the page sent. */
function scriptedFetch(status: number, body: unknown) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({
      url,
      headers: init.headers as Record<string, string>,
      body: JSON.parse(String(init.body)),
    });
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  return { calls, fetch };
}

const create = { model: "local", messages: [{ role: "user" as const, content: "q" }], sources: [] };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("serviceBaseUrl", () => {
  it.each([
    ["http://127.0.0.1:8787/", "http://127.0.0.1:8787"],
    ["http://127.0.0.1:8787/index.html?x=1#ask", "http://127.0.0.1:8787"],
    ["https://example.com/verified/", "https://example.com/verified"],
    ["https://example.com/a/b/index.html", "https://example.com/a/b"],
  ])("%s → %s", (pageUrl, expected) => {
    expect(serviceBaseUrl(pageUrl)).toBe(expected);
  });
});

describe("pageClient", () => {
  it("posts camelCase params as snake_case under the page's path prefix, with the key as typed now", async () => {
    const { calls, fetch } = scriptedFetch(200, { usage: { model_calls: 1, total_tokens: 2 } });
    let key = "";
    const client = pageClient({ getKey: () => key, pageUrl: "https://example.com/verified/", fetch });
    key = " sk-1 ";
    const result = await client().create({ ...create, checkNumbers: "row", allowUngrounded: true });
    expect(result).toEqual({ usage: { modelCalls: 1, totalTokens: 2 } });
    expect(calls).toEqual([
      {
        url: "https://example.com/verified/v1/verified",
        headers: expect.objectContaining({ authorization: "Bearer sk-1" }),
        body: { ...create, check_numbers: "row", allow_ungrounded: true },
      },
    ]);
  });

  it("sends no Authorization header when no key was typed", async () => {
    vi.stubEnv("VERIFIED_API_KEY", "");
    const { calls, fetch } = scriptedFetch(200, {});
    await pageClient({ getKey: () => "  ", pageUrl: "http://127.0.0.1:8787/", fetch })().create(create);
    expect(calls[0]?.headers).not.toHaveProperty("authorization");
  });

  it("does not retry: a 500 reaches the page after one request", async () => {
    const { calls, fetch } = scriptedFetch(500, {
      error: { type: "internal_error", code: "internal_error", message: "Boom." },
    });
    const call = pageClient({ getKey: () => "k", pageUrl: "http://127.0.0.1:8787/", fetch })().create(create);
    await expect(call).rejects.toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(1);
  });

  it("throws the service's error as the client's typed error, with its claims", async () => {
    const { fetch } = scriptedFetch(422, {
      error: {
        type: "ungrounded",
        code: "ungrounded",
        message: "No claim.",
        unsupported: [{ claim: "c", reason: "quote_not_found" }],
      },
    });
    const error = await pageClient({ getKey: () => "k", pageUrl: "http://127.0.0.1:8787/", fetch })()
      .create(create)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UngroundedError);
    expect(error).toMatchObject({
      status: 422,
      type: "ungrounded",
      message: "No claim.",
      unsupported: [{ claim: "c", reason: "quote_not_found" }],
    });
  });

  it("turns a network failure into a ConnectionError (status 0) without retrying", async () => {
    let attempts = 0;
    const fetch = async (): Promise<Response> => {
      attempts++;
      throw new TypeError("Failed to fetch");
    };
    const error = await pageClient({ getKey: () => "k", pageUrl: "http://127.0.0.1:8787/", fetch })()
      .create(create)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 0, type: "connection_error" });
    expect(attempts).toBe(1);
  });
});
