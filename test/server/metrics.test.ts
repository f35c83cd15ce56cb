import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { maxModelLabels, metricNames } from "../../src/server/plugins/metrics.js";
import { errorReply } from "../support/scripted-gateway.js";
import {
  chatBody,
  claimFrom,
  claimsContent,
  type ModelClaim,
  question,
  report,
  startWithGateway,
} from "./harness.js";

// GET /metrics after a known mix of requests: every counter is checked to its exact value.

const founded = claimFrom(report, "Northwind was founded in 2016 in Lyon.");
const staff = claimFrom(report, "The company employs 240 people.");
const invented: ModelClaim = { claim: "Profit doubled.", quote: "profit doubled", source: "report" };

/** The samples of a metric family, as `name{labels} value` lines, sorted. */
function samples(text: string, name: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .sort();
}

describe("GET /metrics", () => {
  it("counts requests, gateway calls, claims, coverage, abstentions and eval cases exactly", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script((call) => {
      const body = chatBody(call);
      if (body.model === "gpt-missing")
        return errorReply(404, "The model does not exist", { code: "model_not_found" });
      const asked = body.messages.filter((message) => message.role === "user")[0]?.content ?? "";
      if (asked.includes("half")) return claimsContent(staff, invented);
      if (asked.includes("broken")) return "no JSON here";
      return claimsContent(founded, staff);
    });
    const ask = (content: string) => [{ role: "user", content }];

    // create: 2 of 2 grounded.
    expect(
      (await service.post("/v1/verified", { model: "gpt-test", messages: question, sources: [report] }))
        .status,
    ).toBe(200);
    // create: 1 of 2, below min_coverage: abstained.
    const half = { model: "gpt-test", messages: ask("half"), sources: [report], min_coverage: 0.9 };
    expect((await service.post("/v1/verified", half)).status).toBe(200);
    // eval: one case 2 of 2, one case 1 of 2 (with details, so reasons are known), one errored (two calls).
    const evalBody = {
      model: "gpt-test",
      details: true,
      cases: [
        { messages: question, sources: [report] },
        { messages: ask("half"), sources: [report] },
        { messages: ask("broken"), sources: [report] },
      ],
    };
    expect((await service.post("/v1/verified/eval", evalBody)).status).toBe(200);
    // An unknown model: one failed gateway call and a 404.
    const missing = { model: "gpt-missing", messages: question, sources: [report] };
    expect((await service.post("/v1/verified", missing)).status).toBe(404);
    // An invalid request: no gateway call.
    expect((await service.post("/v1/verified", { model: "gpt-test" })).status).toBe(400);

    const response = await fetch(`${service.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();

    expect(samples(text, "verified_http_requests_total")).toEqual([
      'verified_http_requests_total{route="/v1/verified",method="POST",status="200"} 2',
      'verified_http_requests_total{route="/v1/verified",method="POST",status="400"} 1',
      'verified_http_requests_total{route="/v1/verified",method="POST",status="404"} 1',
      'verified_http_requests_total{route="/v1/verified/eval",method="POST",status="200"} 1',
    ]);
    expect(samples(text, "verified_gateway_calls_total")).toEqual([
      'verified_gateway_calls_total{gateway="default",model="(other)",outcome="model_not_found"} 1',
      // 2 creates, 3 eval cases, and the re-ask of the broken one.
      'verified_gateway_calls_total{gateway="default",model="gpt-test",outcome="ok"} 6',
    ]);
    expect(samples(text, "verified_gateway_call_duration_seconds_count")).toEqual([
      'verified_gateway_call_duration_seconds_count{gateway="default",model="(other)",outcome="model_not_found"} 1',
      'verified_gateway_call_duration_seconds_count{gateway="default",model="gpt-test",outcome="ok"} 6',
    ]);
    expect(samples(text, "verified_claims_total")).toEqual([
      'verified_claims_total{model="gpt-test",outcome="grounded",reason=""} 6',
      'verified_claims_total{model="gpt-test",outcome="unsupported",reason="quote_not_found"} 2',
    ]);
    expect(samples(text, "verified_abstentions_total")).toEqual([
      'verified_abstentions_total{model="gpt-test"} 1',
    ]);
    expect(samples(text, "verified_eval_cases_total")).toEqual([
      'verified_eval_cases_total{model="gpt-test",outcome="errored"} 1',
      'verified_eval_cases_total{model="gpt-test",outcome="scored"} 2',
    ]);
    expect(samples(text, "verified_coverage_count")).toEqual([
      'verified_coverage_count{model="gpt-test",endpoint="create"} 2',
      'verified_coverage_count{model="gpt-test",endpoint="eval"} 2',
    ]);
    expect(samples(text, "verified_coverage_sum")).toEqual([
      'verified_coverage_sum{model="gpt-test",endpoint="create"} 1.5',
      'verified_coverage_sum{model="gpt-test",endpoint="eval"} 1.5',
    ]);
    expect(samples(text, "verified_coverage_bucket").filter((line) => line.includes('le="0.5"'))).toEqual([
      'verified_coverage_bucket{le="0.5",model="gpt-test",endpoint="create"} 1',
      'verified_coverage_bucket{le="0.5",model="gpt-test",endpoint="eval"} 1',
    ]);
    // Process metrics come from prom-client's defaults.
    expect(text).toMatch(/^verified_process_cpu_seconds_total \d/m);
  });

  it("counts streamed creates and evals in the groundedness metrics exactly as the same requests unstreamed", async () => {
    const groundedness = async (stream: boolean) => {
      const { gateway, service } = await startWithGateway();
      gateway.script((call) => {
        const asked = chatBody(call).messages.filter((message) => message.role === "user")[0]?.content ?? "";
        return asked.includes("half") ? claimsContent(staff, invented) : claimsContent(founded, staff);
      });
      const ask = (content: string) => [{ role: "user", content }];
      const flag = stream ? { stream: true } : {};
      const bodies: [string, unknown][] = [
        ["/v1/verified", { model: "gpt-test", messages: question, sources: [report], ...flag }],
        [
          "/v1/verified",
          { model: "gpt-test", messages: ask("half"), sources: [report], min_coverage: 0.9, ...flag },
        ],
        [
          "/v1/verified/eval",
          {
            model: "gpt-test",
            details: true,
            cases: [
              { messages: question, sources: [report] },
              { messages: ask("half"), sources: [report] },
            ],
            ...flag,
          },
        ],
        [
          "/v1/verified/eval",
          { model: "gpt-test", cases: [{ messages: ask("half"), sources: [report] }], ...flag },
        ],
      ];
      for (const [path, body] of bodies) {
        const response = await fetch(`${service.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer test-key" },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(200);
        expect((response.headers.get("content-type") ?? "").startsWith("text/event-stream")).toBe(stream);
        await response.text();
      }
      const text = await (await fetch(`${service.url}/metrics`)).text();
      return [
        "verified_claims_total",
        "verified_coverage_count",
        "verified_coverage_sum",
        "verified_abstentions_total",
        "verified_eval_cases_total",
      ].flatMap((name) => samples(text, name));
    };

    const plain = await groundedness(false);
    expect(plain).toContain('verified_claims_total{model="gpt-test",outcome="grounded",reason=""} 7');
    expect(plain).toContain('verified_eval_cases_total{model="gpt-test",outcome="scored"} 3');
    expect(await groundedness(true)).toEqual(plain);
  });

  it("counts retries of transient gateway failures by gateway and model", async () => {
    const { gateway, service } = await startWithGateway();
    let calls = 0;
    // The first two calls fail with 503 and are retried; the third answers.
    gateway.script(() => {
      calls += 1;
      return calls <= 2 ? errorReply(503, "overloaded") : claimsContent(founded);
    });
    const create = { model: "gpt-test", messages: question, sources: [report] };
    expect((await service.post("/v1/verified", create)).status).toBe(200);

    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(samples(text, "verified_gateway_retries_total")).toEqual([
      'verified_gateway_retries_total{gateway="default",model="gpt-test"} 2',
    ]);
    expect(samples(text, "verified_gateway_calls_total")).toEqual([
      'verified_gateway_calls_total{gateway="default",model="gpt-test",outcome="ok"} 1',
    ]);
  });

  it("labels model calls with what answered them: the local model, a gateway, or none", async () => {
    const { service } = await startWithGateway();
    const local = { model: "local", messages: question, sources: [report] };
    await service.post("/v1/verified", local);
    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(samples(text, "verified_gateway_calls_total")).toEqual([
      expect.stringMatching(
        /^verified_gateway_calls_total\{gateway="local",model="local",outcome="[a-z_]+"\} 1$/,
      ),
    ]);
  });

  it("gives a model label only to ids a gateway answered, so refused ids cannot squat the slots", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script((call) =>
      chatBody(call).model.startsWith("made-up-")
        ? errorReply(404, "The model does not exist", { code: "model_not_found" })
        : claimsContent(founded),
    );
    for (let index = 0; index <= maxModelLabels; index += 1) {
      const refused = { model: `made-up-${index}`, messages: question, sources: [report] };
      expect((await service.post("/v1/verified", refused)).status).toBe(404);
    }
    const real = { model: "gpt-real", messages: question, sources: [report] };
    expect((await service.post("/v1/verified", real)).status).toBe(200);
    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(samples(text, "verified_gateway_calls_total")).toEqual([
      `verified_gateway_calls_total{gateway="default",model="(other)",outcome="model_not_found"} ${maxModelLabels + 1}`,
      'verified_gateway_calls_total{gateway="default",model="gpt-real",outcome="ok"} 1',
    ]);
    expect(samples(text, "verified_claims_total")).toEqual([
      'verified_claims_total{model="gpt-real",outcome="grounded",reason=""} 1',
    ]);
  });

  it("labels a configured model from the start, even when its calls fail", async () => {
    const { gateway, service } = await startWithGateway({
      config: { models: [{ id: "gpt-pinned", match: "exact", gateway: "default" }] },
    });
    gateway.script(() => errorReply(404, "The model does not exist", { code: "model_not_found" }));
    for (const model of [
      ...Array.from({ length: maxModelLabels }, (_, index) => `made-up-${index}`),
      "gpt-pinned",
    ]) {
      expect(
        (await service.post("/v1/verified", { model, messages: question, sources: [report] })).status,
      ).toBe(404);
    }
    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(samples(text, "verified_gateway_calls_total")).toEqual([
      `verified_gateway_calls_total{gateway="default",model="(other)",outcome="model_not_found"} ${maxModelLabels}`,
      'verified_gateway_calls_total{gateway="default",model="gpt-pinned",outcome="model_not_found"} 1',
    ]);
  });

  it("needs a key when the service has keys", async () => {
    const { service } = await startWithGateway({ config: { apiKeys: ["k1"] } });
    const refused = await fetch(`${service.url}/metrics`);
    expect(refused.status).toBe(401);
    const allowed = await fetch(`${service.url}/metrics`, { headers: { authorization: "Bearer k1" } });
    expect(allowed.status).toBe(200);
  });
});

describe("docs/operations.md", () => {
  it("lists in its metric table exactly the metrics the service exports", () => {
    const doc = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
    const documented = [...doc.matchAll(/^\| `(verified_[a-z_]+)` \|/gm)].map((match) => match[1]);
    expect([...documented].sort()).toEqual([...metricNames].sort());
  });
});

describe("deploy/grafana/verified-dashboard.json", () => {
  it("is valid JSON whose panels query only metrics the service exports", () => {
    const file = new URL("../../deploy/grafana/verified-dashboard.json", import.meta.url);
    const dashboard = JSON.parse(readFileSync(file, "utf8")) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.panels.length).toBeGreaterThan(0);
    const exported = new Set<string>(metricNames);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets) {
        const names = target.expr.match(/\bverified_[a-z_]+/g) ?? [];
        expect(names.length, panel.title).toBeGreaterThan(0);
        for (const name of names) {
          const family = name.replace(/_(bucket|sum|count)$/, "");
          expect(
            exported.has(family) || family.startsWith("verified_process_"),
            `${panel.title}: ${name}`,
          ).toBe(true);
        }
      }
    }
  });
});
