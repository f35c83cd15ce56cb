import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Verified } from "../src/client/index.js";
import { type RunningService, startService } from "./support/start-service.js";

// The Quick start's curl commands, run as written (no key: an open service needs none for the local model)
// against the local model, so the README stays true.
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const quickStartAt = readme.indexOf("## Quick start");
const quickStart = readme.slice(quickStartAt, readme.indexOf("\n## ", quickStartAt + 1));
const requests = [...quickStart.matchAll(/curl -s http:\/\/127\.0\.0\.1:8787(\S+) .*? -d '([^']+)'/gs)].map(
  (match) => ({
    path: match[1] as string,
    body: JSON.parse(match[2] as string) as Record<string, unknown>,
  }),
);

let service: RunningService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

function requestFor(path: string) {
  const request = requests.find((candidate) => candidate.path === path);
  if (request === undefined) throw new Error(`the Quick start has no curl to ${path}`);
  return request;
}

describe("README Quick start", () => {
  it("runs the openai package example as written and prints what its comment says", async () => {
    const example = /```js\n([\s\S]*?)```/.exec(quickStart)?.[1] ?? "";
    const promised = /\/\/ (pass .*)\n$/.exec(example)?.[1];
    if (promised === undefined) throw new Error("the Quick start's openai example lost its output comment");
    const code = `import OpenAI from "openai";\n${example.replace("http://127.0.0.1:8787", service.url)}`;
    // Asynchronously, from the repository (where `openai` is installed): the service runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", code], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      encoding: "utf8",
    });
    expect(stdout).toBe(`${promised}\n`);
  });

  it("has one curl per operation", () => {
    expect(requests.map((request) => request.path)).toEqual([
      "/v1/verified",
      "/v1/verified/extract",
      "/v1/verified/eval",
      "/v1/verified/check",
    ]);
  });

  it("create cites the returns sentence", async () => {
    const response = await service.post("/v1/verified", requestFor("/v1/verified").body, { key: null });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      text: "You can return any product within 30 days of delivery [returns].",
      citations: [
        {
          source: "returns",
          quote: "You can return any product within 30 days of delivery.",
          range: [0, 54],
        },
      ],
      unsupported: [],
      coverage: 1,
      grounded: true,
    });
  });

  it("extract finds two fields and not the missing one", async () => {
    const response = await service.post("/v1/verified/extract", requestFor("/v1/verified/extract").body, {
      key: null,
    });
    expect(response.status).toBe(200);
    expect(response.body.fields).toEqual({
      invoice_number: { value: "INV-0042", source: "invoice", range: [16, 24], grounded: true },
      customer: { value: "Acme GmbH", source: "invoice", range: [35, 44], grounded: true },
      po_number: { value: null, grounded: false, reason: "not_found" },
    });
  });

  it("eval scores the answerable case 1 and the other 0", async () => {
    const response = await service.post("/v1/verified/eval", requestFor("/v1/verified/eval").body, {
      key: null,
    });
    expect(response.status).toBe(200);
    expect(response.body.aggregate).toEqual({
      coverage_mean: 0.5,
      unsupported_rate: 0,
      n: 2,
      errored: 0,
      correct_rate: 0.5,
    });
    expect(response.body.cases).toEqual([
      {
        coverage: 1,
        citations: 1,
        unsupported: 0,
        correct: true,
        match: { expected: "30 days", citation: 0, range: expect.any(Array) },
      },
      { coverage: 0, citations: 0, unsupported: 0, correct: false },
    ]);
    expect(response.body.aggregate.correct_rate).toBe(0.5);
  });

  it("check keeps the revenue cell and drops the profit figure claimed as revenue", async () => {
    const response = await service.post("/v1/verified/check", requestFor("/v1/verified/check").body, {
      key: null,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      text: "Q3 revenue was 1,250 [q].",
      citations: [
        { claim: "Q3 revenue was 1,250.", quote: "| Q3 | 1,250 | 120 |", source: "q", range: [65, 85] },
      ],
      unsupported: [
        {
          claim: "Q3 revenue was 120.",
          reason: "number_not_found",
          quote: "| Q3 | 1,250 | 120 |",
          source: "q",
        },
      ],
      coverage: 0.5,
      usage: { model_calls: 0, total_tokens: 0 },
    });
  });
});

describe("README From TypeScript", () => {
  // The example's last line promises its output in a comment: `// "text" [start, end]`.
  const example = readme.slice(readme.indexOf("## From TypeScript"));
  const promised =
    /console\.log\(answer\.text, answer\.citations\[0\]\?\.range\); \/\/ ("[^"]+") \[(\d+), (\d+)\]/.exec(
      example,
    );

  it("the client's create prints what the comment says", async () => {
    if (promised === null) throw new Error("the README's TypeScript example lost its output comment");
    const client = new Verified({ baseURL: service.url });
    const answer = await client.create({
      model: "local",
      messages: [{ role: "user", content: "Within how many days are refunds accepted?" }],
      sources: [{ id: "handbook", text: "Refunds are accepted within 30 days of purchase." }],
      checkNumbers: true,
    });
    expect([answer.text, answer.citations[0]?.range]).toEqual([
      JSON.parse(promised[1] as string),
      [Number(promised[2]), Number(promised[3])],
    ]);
  });
});

// "Verify an answer you already have": its curl, run as written.
const answerAt = readme.indexOf("## Verify an answer you already have");
const answerSection = readme.slice(answerAt, readme.indexOf("\n## ", answerAt + 1));
const answerRequest = [
  ...answerSection.matchAll(/curl -s http:\/\/127\.0\.0\.1:8787(\S+) .*? -d '([^']+)'/gs),
].map((match) => ({
  path: match[1] as string,
  body: JSON.parse(match[2] as string) as Record<string, unknown>,
}));

describe("README: verify an answer you already have", () => {
  it("has one curl, to the check endpoint", () => {
    expect(answerRequest.map((request) => request.path)).toEqual(["/v1/verified/check"]);
  });

  it("drops the wrongly cited and the unsupported sentences and keeps the shipping one", async () => {
    const response = await service.post("/v1/verified/check", answerRequest[0]?.body, { key: null });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.text).toBe("Orders over $50 ship free [2].");
    expect(body.citations).toEqual([
      {
        claim: "Orders over $50 ship free.",
        quote: "Orders over $50 ship free.",
        source: "shipping",
        range: [37, 63],
        support: 1,
        answer_range: [103, 133],
      },
    ]);
    expect(
      body.unsupported.map((entry: { reason: string; detail?: unknown }) => [entry.reason, entry.detail]),
    ).toEqual([
      ["wrong_source", { found_in: ["returns"] }],
      ["entity_not_found", { entity: "Gold" }],
    ]);
  });
});
