import { describe, expect, it } from "vitest";
import type { Source } from "../../src/core/types.js";
import { startScriptedGateway } from "../support/scripted-gateway.js";
import { startService } from "../support/start-service.js";
import { chatBody, closeAfterTest, rangeOf, report, scriptedUsage, startWithGateway } from "./harness.js";

// Extract over HTTP against a scripted model.

const sheet: Source = {
  id: "sheet",
  text: "Legal name: Northwind Analytics SAS\nChief executive: Amélie Durand\nHeadquarters: Lyon, France",
};
const sources = [report, sheet];
const schema = {
  legal_name: "the company's legal name",
  ceo: "name of the chief executive",
  city: "city it was founded in",
  founded: "year it was founded",
  ticker: "stock ticker",
  revenue: "revenue for 2024",
};

const fieldsContent = (fields: Record<string, unknown>) => JSON.stringify({ fields });

describe("POST /v1/verified/extract", () => {
  it("keeps values found verbatim, wherever they are, and nulls the rest with not_found", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([
      fieldsContent({
        legal_name: { value: "Northwind Analytics SAS", source: "sheet" },
        // Named the wrong source: still found in another one.
        ceo: { value: "Amélie Durand", source: "report" },
        // No source named.
        city: { value: "Lyon", source: null },
        founded: { value: "2016", source: "report" },
        // A value no source holds.
        ticker: { value: "NWND", source: "sheet" },
        // revenue: left out by the model, read as null.
      }),
    ]);

    const response = await service.post("/v1/verified/extract", { model: "gpt-test", sources, schema });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: "ext_test",
      model: "gpt-test",
      fields: {
        legal_name: {
          value: "Northwind Analytics SAS",
          source: "sheet",
          range: rangeOf(sheet, "Northwind Analytics SAS"),
          grounded: true,
        },
        ceo: {
          value: "Amélie Durand",
          source: "sheet",
          range: rangeOf(sheet, "Amélie Durand"),
          grounded: true,
        },
        city: { value: "Lyon", source: "report", range: rangeOf(report, "Lyon"), grounded: true },
        founded: { value: "2016", source: "report", range: rangeOf(report, "2016"), grounded: true },
        ticker: { value: null, grounded: false, reason: "not_found" },
        revenue: { value: null, grounded: false, reason: "not_found" },
      },
      coverage: 4 / 6,
      usage: scriptedUsage(1),
    });
  });

  it.each([
    { mode: undefined, grounded: false },
    { mode: "strict", grounded: false },
    { mode: "lenient", grounded: true },
  ])(
    "mode $mode: a value differing in case and punctuation is grounded: $grounded",
    async ({ mode, grounded }) => {
      const { gateway, service } = await startWithGateway();
      gateway.script.replyWith([fieldsContent({ city: { value: "lyon france", source: "sheet" } })]);

      const response = await service.post("/v1/verified/extract", {
        model: "gpt-test",
        sources,
        schema: { city: "city and country of the head office" },
        ...(mode === undefined ? {} : { mode }),
      });

      expect(response.status).toBe(200);
      expect(response.body.fields.city).toEqual(
        grounded
          ? // The source's own text is reported, not the model's spelling.
            { value: "Lyon, France", source: "sheet", range: rangeOf(sheet, "Lyon, France"), grounded: true }
          : { value: null, grounded: false, reason: "not_found" },
      );
    },
  );

  it("re-asks once after unusable output", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([
      '{"legal_name": "Northwind Analytics SAS"}',
      `\`\`\`json\n${fieldsContent({ legal_name: { value: "Northwind Analytics SAS", source: "sheet" } })}\n\`\`\``,
    ]);

    const response = await service.post("/v1/verified/extract", {
      model: "gpt-test",
      sources,
      schema: { legal_name: "the company's legal name" },
    });

    expect(response.status).toBe(200);
    expect(response.body.coverage).toBe(1);
    expect(response.body.usage).toEqual(scriptedUsage(2));
    expect(chatBody(gateway.calls[1]).messages.at(-1)).toEqual({
      role: "user",
      content: expect.stringContaining('expected an object with a "fields" object'),
    });
  });

  it("is 502 extraction_failed when the output is unusable twice", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith(["no", fieldsContent({ legal_name: { value: 42 } })]);

    const response = await service.post("/v1/verified/extract", {
      model: "gpt-test",
      sources,
      schema: { legal_name: "the company's legal name" },
    });

    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      error: {
        request_id: expect.any(String),
        type: "extraction_failed",
        code: "extraction_failed",
        message:
          'The model\'s output was unusable after one re-ask: fields.legal_name must be {"value": string | null, "source": string | null}. Check that the model follows the output contract in docs/api.md.',
      },
    });
  });

  it("keeps field names such as constructor and toString as ordinary keys", async () => {
    const { gateway, service } = await startWithGateway();
    gateway.script.replyWith([
      fieldsContent({ constructor: { value: "Lyon", source: "report" }, toString: null }),
    ]);

    const response = await service.post("/v1/verified/extract", {
      model: "gpt-test",
      sources,
      schema: { constructor: "city", toString: "anything" },
    });

    expect(response.status).toBe(200);
    expect(response.body.fields).toEqual({
      constructor: { value: "Lyon", source: "report", range: rangeOf(report, "Lyon"), grounded: true },
      toString: { value: null, grounded: false, reason: "not_found" },
    });
  });
});

describe("result ids", () => {
  it("are vfd_ and ext_ followed by random characters, different each time", async () => {
    const gateway = await startScriptedGateway();
    closeAfterTest(gateway);
    const service = await startService({ gatewayURL: gateway.url });
    closeAfterTest(service);
    gateway.script((call) =>
      chatBody(call).response_format?.json_schema?.name === "verified_fields"
        ? fieldsContent({ city: { value: "Lyon", source: "report" } })
        : JSON.stringify({ claims: [{ claim: "Lyon.", quote: "Lyon", source: "report" }] }),
    );
    const create = { model: "gpt-test", messages: [{ role: "user", content: "Where?" }], sources };
    const extract = { model: "gpt-test", sources, schema: { city: "city" } };

    const ids = [
      (await service.post("/v1/verified", create)).body.id,
      (await service.post("/v1/verified", create)).body.id,
      (await service.post("/v1/verified/extract", extract)).body.id,
      (await service.post("/v1/verified/extract", extract)).body.id,
    ];

    expect(ids[0]).toMatch(/^vfd_[A-Za-z0-9_-]{12,}$/);
    expect(ids[1]).toMatch(/^vfd_[A-Za-z0-9_-]{12,}$/);
    expect(ids[2]).toMatch(/^ext_[A-Za-z0-9_-]{12,}$/);
    expect(ids[3]).toMatch(/^ext_[A-Za-z0-9_-]{12,}$/);
    expect(new Set(ids).size).toBe(4);
  });
});
