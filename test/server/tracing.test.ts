import { describe, expect, it } from "vitest";
import { validTraceparent } from "../../src/server/plugins/tracing.js";
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
