import { describe, expect, it } from "vitest";
import type { Source } from "../../src/core/types.js";
import { sampleQuestion, sampleSchema, sampleSources } from "../../src/sample.js";
import { report, startWithGateway, startWithoutGateway } from "./harness.js";

// The built-in `local` model end to end: no gateway configured, every operation over HTTP.

const ask = (content: string) => [{ role: "user", content }];
const invoice: Source = {
  id: "invoice",
  text: "Invoice number: INV-2024-0042\nDue date: 15 March 2025\nTotal: €1,250.00",
};

interface WireCitation {
  claim: string;
  quote: string;
  source: string;
  range: [number, number];
}

/** Every citation's range slices its quote out of the named source. */
function expectSlices(citations: WireCitation[], sources: readonly Source[]): void {
  for (const citation of citations) {
    const source = sources.find((item) => item.id === citation.source);
    expect(source?.text.slice(citation.range[0], citation.range[1])).toBe(citation.quote);
  }
}

describe("model local with no gateway configured", () => {
  it("create: answers with whole source sentences as grounded claims", async () => {
    const service = await startWithoutGateway();

    const response = await service.post("/v1/verified", {
      model: "local",
      messages: ask("When and where was Northwind founded?"),
      sources: [report],
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: "vfd_test",
      model: "local",
      text: "Northwind was founded in 2016 in Lyon [report].",
      citations: [
        {
          claim: "Northwind was founded in 2016 in Lyon.",
          quote: "Northwind was founded in 2016 in Lyon.",
          source: "report",
          range: [0, 38],
        },
      ],
      unsupported: [],
      coverage: 1,
      abstained: false,
      grounded: true,
      usage: {
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
        model_calls: 1,
      },
    });
    const { usage } = response.body;
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
  });

  it("create: the README sample, deterministically, with citations that slice to their quotes", async () => {
    const service = await startWithoutGateway();
    const body = { model: "local", messages: ask(sampleQuestion), sources: sampleSources };

    const first = await service.post("/v1/verified", body);
    const second = await service.post("/v1/verified", body);

    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(first.body.grounded).toBe(true);
    expect(first.body.coverage).toBe(1);
    expect(first.body.citations.length).toBeGreaterThanOrEqual(2);
    expect(first.body.citations.map((citation: WireCitation) => citation.quote)).toContain(
      "Revenue for 2024 was $18.4 million, a growth of 22% over 2023.",
    );
    expectSlices(first.body.citations, sampleSources);
  });

  it.each([
    {
      name: "Japanese",
      source: {
        id: "ja",
        text: "東京は日本の首都です。大阪は大きな商業都市です。富士山は日本で一番高い山です。",
      },
      question: "日本の首都はどこですか？",
      quote: "東京は日本の首都です。",
    },
    {
      name: "Greek",
      source: { id: "el", text: "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας. Η Θεσσαλονίκη είναι λιμάνι." },
      question: "Ποια είναι η πρωτεύουσα της Ελλάδας;",
      quote: "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.",
    },
  ])("create: splits sentences and words in $name", async ({ source, question, quote }) => {
    const service = await startWithoutGateway();

    const response = await service.post("/v1/verified", {
      model: "local",
      messages: ask(question),
      sources: [source],
    });

    expect(response.status).toBe(200);
    expect(response.body.citations.map((citation: WireCitation) => citation.quote)).toEqual([quote]);
    expectSlices(response.body.citations, [source]);
  });

  it.each([
    {
      question: "How long is the warranty on batteries?",
      quote: "Batteries are covered for 12 months.",
    },
    { question: "How much does shipping cost?", quote: "Shipping is €4.95 per order." },
    {
      question: "How long do refunds take?",
      quote: "Refunds are issued within 30 days of the return.",
    },
  ])(
    "create: a policy question is answered by the sentence that answers it: $question",
    async ({ question, quote }) => {
      const service = await startWithoutGateway();
      const policy: Source = {
        id: "policy",
        text: "Shipping takes 3 days. Shipping is €4.95 per order. Batteries are covered for 12 months. Refunds are issued within 30 days of the return.",
      };

      const response = await service.post("/v1/verified", {
        model: "local",
        messages: ask(question),
        sources: [policy],
      });

      expect(response.status).toBe(200);
      expect(response.body.grounded).toBe(true);
      expect(response.body.citations[0]?.quote).toBe(quote);
      expectSlices(response.body.citations, [policy]);
    },
  );

  it("create: an unanswerable question is 422 ungrounded, or a plain answer with allow_ungrounded", async () => {
    const service = await startWithoutGateway();
    const body = { model: "local", messages: ask("What is the capital of Peru?"), sources: [report] };

    const refused = await service.post("/v1/verified", body);
    const plain = await service.post("/v1/verified", { ...body, allow_ungrounded: true });

    expect(refused.status).toBe(422);
    expect(refused.body.error.type).toBe("ungrounded");
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({
      text: 'I answer only from the supplied sources, and I could not ground an answer to "What is the capital of Peru?" in them.',
      citations: [],
      unsupported: [],
      coverage: 0,
      grounded: false,
      usage: { model_calls: 2 },
    });
  });

  it("create: no sources with allow_ungrounded is a plain answer from one call", async () => {
    const service = await startWithoutGateway();

    const response = await service.post("/v1/verified", {
      model: "local",
      messages: ask("Anything?"),
      sources: [],
      allow_ungrounded: true,
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ grounded: false, citations: [], usage: { model_calls: 1 } });
    expect(response.body.text).toMatch(/^I answer only from the supplied sources/);
  });

  it("extract: labelled values as verbatim spans, null for what is absent", async () => {
    const service = await startWithoutGateway();

    const response = await service.post("/v1/verified/extract", {
      model: "local",
      sources: [invoice],
      schema: {
        invoice_number: "the invoice number",
        due_date: "when payment is due",
        iban: "bank account IBAN",
      },
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: "ext_test",
      model: "local",
      fields: {
        invoice_number: { value: "INV-2024-0042", source: "invoice", range: [16, 29], grounded: true },
        due_date: { value: "15 March 2025", source: "invoice", range: [40, 53], grounded: true },
        iban: { value: null, grounded: false, reason: "not_found" },
      },
      coverage: 2 / 3,
      usage: expect.objectContaining({ model_calls: 1 }),
    });
  });

  it("extract: the README sample finds every field", async () => {
    const service = await startWithoutGateway();

    const response = await service.post("/v1/verified/extract", {
      model: "local",
      sources: sampleSources,
      schema: sampleSchema,
    });

    expect(response.status).toBe(200);
    expect(response.body.coverage).toBe(1);
    expect(
      Object.fromEntries(
        Object.entries(response.body.fields as Record<string, { value: string }>).map(([name, field]) => [
          name,
          field.value,
        ]),
      ),
    ).toEqual({
      company_name: "Northwind Analytics SAS",
      ceo: "Amélie Durand",
      headquarters: "Lyon, France",
      employee_count: "240",
    });
    for (const field of Object.values(
      response.body.fields as Record<string, WireCitation & { value: string }>,
    )) {
      const source = sampleSources.find((item) => item.id === field.source);
      expect(source?.text.slice(field.range[0], field.range[1])).toBe(field.value);
    }
  });

  it("eval: scores an answerable and an unanswerable case", async () => {
    const service = await startWithoutGateway();

    const response = await service.post("/v1/verified/eval", {
      model: "local",
      cases: [
        { messages: ask("Where was Northwind founded?"), sources: [report] },
        { messages: ask("What is the capital of Peru?"), sources: [report] },
      ],
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      aggregate: { coverage_mean: 0.5, unsupported_rate: 0, n: 2, errored: 0 },
      cases: [
        { coverage: 1, citations: 1, unsupported: 0 },
        { coverage: 0, citations: 0, unsupported: 0 },
      ],
      usage: { total_tokens: expect.any(Number), model_calls: 2 },
    });
  });

  it.each([
    { path: "/v1/verified", body: { model: "gpt-4o", messages: ask("Hi?"), sources: [report] } },
    { path: "/v1/verified/extract", body: { model: "gpt-4o", sources: [report], schema: { city: "City" } } },
    {
      path: "/v1/verified/eval",
      body: { model: "gpt-4o", cases: [{ messages: ask("Hi?"), sources: [report] }] },
    },
  ])("any other model on $path is 404 model_not_found", async ({ path, body }) => {
    const service = await startWithoutGateway();

    const response = await service.post(path, body);

    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      error: {
        request_id: expect.any(String),
        type: "model_not_found",
        code: "model_not_found",
        message:
          'Model "gpt-4o" needs a model gateway, and none is configured. Start the service with --gateway-url (or VERIFIED_GATEWAY_URL) pointing at an OpenAI-compatible endpoint, or use model "local".',
        param: "model",
      },
    });
  });
});

describe("model local with a gateway configured", () => {
  it("still runs in process and never calls the gateway", async () => {
    const { gateway, service } = await startWithGateway();

    const create = await service.post("/v1/verified", {
      model: "local",
      messages: ask("Where was Northwind founded?"),
      sources: [report],
    });
    const extract = await service.post("/v1/verified/extract", {
      model: "local",
      sources: [invoice],
      schema: { invoice_number: "the invoice number" },
    });

    expect(create.status).toBe(200);
    expect(extract.status).toBe(200);
    expect(gateway.calls).toHaveLength(0);
  });
});
