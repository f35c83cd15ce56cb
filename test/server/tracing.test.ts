import { describe, expect, it } from "vitest";
import { validTraceparent } from "../../src/server/plugins/tracing.js";
import { parseEventStream } from "../support/event-stream.js";
import { chatBody, claimFrom, claimsContent, question, report, startWithGateway } from "./harness.js";

// x-request-id on every answer, log line and error body; W3C traceparent/tracestate forwarded to the gateway.

const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const createBody = { model: "gpt-test", messages: question, sources: [report] };
const founded = claimFrom(report, "Northwind was founded in 2016 in Lyon.");

describe("request ids", () => {
  it("echoes a caller's x-request-id on the answer and the log line", async () => {
    const { gateway, service } = await startWithGateway({ captureLogs: true });
    gateway.script(() => claimsContent(founded));
    const response = await service.post("/v1/verified", createBody, {
      headers: { "x-request-id": "abc-123" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("abc-123");
    const line = service.logs.find((entry) => entry.msg === "request");
    expect(line).toMatchObject({ request_id: "abc-123", route: "/v1/verified", status: 200 });
  });

  it.each([
    { name: "none", headers: {} },
    { name: "one with a space", headers: { "x-request-id": "a b" } },
    { name: "one over 128 characters", headers: { "x-request-id": "x".repeat(129) } },
  ])(
    "creates a request id when the caller sent $name, and puts it in the error body",
    async ({ headers }) => {
      const { service } = await startWithGateway();
      const response = await service.post("/v1/verified", { ...createBody, mode: "fuzzy" }, { headers });
      expect(response.status).toBe(400);
      const id = response.headers.get("x-request-id");
      expect(id).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
      expect(response.body.error).toMatchObject({ type: "invalid_request", request_id: id });
    },
  );

  it("puts the caller's id in a 404 body too", async () => {
    const { service } = await startWithGateway();
    const response = await service.post("/v1/nothing", {}, { headers: { "x-request-id": "trace-me" } });
    expect(response.status).toBe(404);
    expect(response.body.error.request_id).toBe("trace-me");
    expect(response.headers.get("x-request-id")).toBe("trace-me");
  });
});

describe("request ids on streams and on answers no hook sees", () => {
  /** POSTs with `"stream": true` and reads the whole event stream. */
  async function postStream(url: string, path: string, body: unknown, requestId: string) {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: "Bearer test-key",
        "x-request-id": requestId,
      },
      body: JSON.stringify({ ...(body as object), stream: true }),
    });
    return { headers: response.headers, ...parseEventStream(await response.text()) };
  }

  it("a streamed create carries the id and Server-Timing in its headers", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => claimsContent(founded));
    const streamed = await postStream(service.url, "/v1/verified", createBody, "stream-1");
    expect(streamed.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(streamed.headers.get("x-request-id")).toBe("stream-1");
    expect(streamed.headers.get("server-timing")).toMatch(
      /^gateway;dur=[\d.]+, verify;dur=[\d.]+, total;dur=[\d.]+$/,
    );
    expect(streamed.events.at(-1)?.event).toBe("done");
  });

  it("a stream's error event carries the request id", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() =>
      claimsContent({ claim: "Profit doubled.", quote: "profit doubled", source: "report" }),
    );
    const streamed = await postStream(service.url, "/v1/verified", createBody, "stream-2");
    const last = streamed.events.at(-1);
    expect(last?.event).toBe("error");
    expect(last?.data.error).toMatchObject({ type: "ungrounded", request_id: "stream-2" });
  });

  it("a streamed eval carries the id", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => claimsContent(founded));
    const streamed = await postStream(
      service.url,
      "/v1/verified/eval",
      { model: "gpt-test", cases: [{ messages: question, sources: [report] }] },
      "stream-3",
    );
    expect(streamed.headers.get("x-request-id")).toBe("stream-3");
    expect(streamed.events.map((event) => event.event)).toEqual(["case", "done"]);
  });

  it("the 400 of a path with bad percent-encoding carries the id in its header and body", async () => {
    const { service } = await startWithGateway();
    const response = await fetch(`${service.url}/v1/verified%E0%A4%A`, {
      headers: { "x-request-id": "bad-path" },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-request-id")).toBe("bad-path");
    expect(((await response.json()) as { error: unknown }).error).toMatchObject({
      type: "invalid_request",
      message: "The request path is not valid percent-encoding.",
      request_id: "bad-path",
    });
  });
});

describe("W3C trace context", () => {
  it("forwards a valid traceparent and tracestate to the gateway on every call", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => claimsContent(founded));
    await service.post("/v1/verified", createBody, {
      headers: { traceparent, tracestate: "vendor=abc" },
    });
    expect(gateway.calls).toHaveLength(1);
    expect(gateway.calls[0]?.headers).toMatchObject({ traceparent, tracestate: "vendor=abc" });
    expect(chatBody(gateway.calls[0]).model).toBe("gpt-test");
  });

  it("forwards nothing for an invalid traceparent", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script(() => claimsContent(founded));
    await service.post("/v1/verified", createBody, {
      headers: { traceparent: "00-00000000000000000000000000000000-00f067aa0ba902b7-01", tracestate: "a=b" },
    });
    expect(gateway.calls[0]?.headers.traceparent).toBeUndefined();
    expect(gateway.calls[0]?.headers.tracestate).toBeUndefined();
  });

  it.each([
    { value: traceparent, valid: true },
    { value: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", valid: true },
    { value: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", valid: false },
    { value: "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", valid: false },
    { value: "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", valid: false },
    { value: "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", valid: false },
    { value: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", valid: false },
  ])("validTraceparent($value) is valid: $valid", ({ value, valid }) => {
    expect(validTraceparent(value)).toBe(valid ? value : undefined);
  });
});
