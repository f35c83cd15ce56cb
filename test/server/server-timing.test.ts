import { describe, expect, it } from "vitest";
import { delayed } from "../support/scripted-gateway.js";
import { chatBody, claimsContent, report, startWithGateway } from "./harness.js";

// The Server-Timing header splits gateway time from the service's own time on every operation.

const pattern = /^gateway;dur=(\d+\.\d), verify;dur=(-?\d+\.\d), total;dur=(\d+\.\d)$/;

function readTiming(header: string | null): { gateway: number; verify: number; total: number } {
  const match = pattern.exec(header ?? "");
  if (!match) throw new Error(`Server-Timing ${JSON.stringify(header)} does not match ${pattern}`);
  return { gateway: Number(match[1]), verify: Number(match[2]), total: Number(match[3]) };
}

const messages = [{ role: "user", content: "Where?" }];
const lyon = claimsContent({ claim: "Lyon.", quote: "Lyon", source: "report" });

describe("Server-Timing", () => {
  it.each([
    { path: "/v1/verified", body: { model: "gpt-test", messages, sources: [report] } },
    {
      path: "/v1/verified/extract",
      body: { model: "gpt-test", sources: [report], schema: { city: "city" } },
    },
    { path: "/v1/verified/eval", body: { model: "gpt-test", cases: [{ messages, sources: [report] }] } },
  ])("on $path, the gateway's share covers a slow gateway", async ({ path, body }) => {
    const { gateway, service } = await startWithGateway();
    gateway.script((call) =>
      delayed(
        150,
        chatBody(call).response_format?.json_schema?.name === "verified_fields"
          ? JSON.stringify({ fields: { city: { value: "Lyon", source: "report" } } })
          : lyon,
      ),
    );

    const response = await service.post(path, body);

    expect(response.status).toBe(200);
    const timing = readTiming(response.headers.get("server-timing"));
    expect(timing.gateway).toBeGreaterThanOrEqual(140);
    expect(timing.verify).toBeGreaterThanOrEqual(0);
    expect(timing.gateway + timing.verify).toBeCloseTo(timing.total, 0);
  });

  it("on check, which calls no model, the gateway's share is 0", async () => {
    const { service } = await startWithGateway();

    const response = await service.post("/v1/verified/check", {
      sources: [report],
      claims: [{ quote: "Lyon", source: "report" }],
    });

    expect(response.status).toBe(200);
    expect(readTiming(response.headers.get("server-timing")).gateway).toBe(0);
  });

  it("on the local model too", async () => {
    const { service } = await startWithGateway();

    const response = await service.post("/v1/verified", {
      model: "local",
      messages: [{ role: "user", content: "Where was Northwind founded?" }],
      sources: [report],
    });

    expect(response.status).toBe(200);
    readTiming(response.headers.get("server-timing"));
  });

  it("on an operation's error after a gateway call", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([delayed(100, claimsContent())]);

    const response = await service.post("/v1/verified", { model: "gpt-test", messages, sources: [report] });

    expect(response.status).toBe(422);
    expect(readTiming(response.headers.get("server-timing")).gateway).toBeGreaterThanOrEqual(90);
  });

  it("not on /healthz or /openapi.json", async () => {
    const { service } = await startWithGateway();

    expect((await fetch(`${service.url}/healthz`)).headers.get("server-timing")).toBeNull();
    expect((await fetch(`${service.url}/openapi.json`)).headers.get("server-timing")).toBeNull();
  });
});
