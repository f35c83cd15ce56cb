import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataset } from "../src/cli/input/index.js";
import { evalCaseIdProblem, Verified } from "../src/client/index.js";
import { MAX_EVAL_CASE_ID_LENGTH } from "../src/limits.js";
import { compileValidator, EvalCaseSchema } from "../src/wire/index.js";
import { type RunningService, startService } from "./support/start-service.js";

// One rule for an eval case's `id`, held by the service's schema, the CLI's dataset reader and the client's
// evalAll (which keeps ids to itself): each id below is accepted by all of them or by none.

const messages = [{ role: "user" as const, content: "How long is the warranty?" }];
const sources = [{ id: "terms", text: "The warranty lasts 12 months." }];
const validateCase = compileValidator(EvalCaseSchema);

const ids: { name: string; id: unknown; accepted: boolean }[] = [
  { name: "a short string", id: "case-1", accepted: true },
  { name: "a string at the limit", id: "x".repeat(MAX_EVAL_CASE_ID_LENGTH), accepted: true },
  { name: "a string one over the limit", id: "x".repeat(MAX_EVAL_CASE_ID_LENGTH + 1), accepted: false },
  // Astral characters count two UTF-16 units each, in JavaScript's `length` and in the schema alike.
  { name: "emoji at the limit", id: "😀".repeat(MAX_EVAL_CASE_ID_LENGTH / 2), accepted: true },
  { name: "emoji over the limit", id: "😀".repeat(MAX_EVAL_CASE_ID_LENGTH / 2 + 1), accepted: false },
  { name: "an empty string", id: "", accepted: false },
  { name: "a whole number", id: 7, accepted: true },
  { name: "zero", id: 0, accepted: true },
  { name: "a fraction", id: -1.5, accepted: true },
  { name: "null", id: null, accepted: false },
  { name: "true", id: true, accepted: false },
  { name: "an object", id: { name: "a" }, accepted: false },
  { name: "an array", id: ["a"], accepted: false },
];

let service: RunningService;
const scratch = mkdtempSync(join(tmpdir(), "verified-case-id-"));

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service.close();
});

describe.each(ids)("an eval case id that is $name", ({ name, id, accepted }) => {
  it(`is ${accepted ? "accepted" : "refused"} by the schema and the client's check alike`, () => {
    expect(validateCase({ id, messages, sources }).ok).toBe(accepted);
    expect(evalCaseIdProblem(id) === undefined).toBe(accepted);
  });

  it(`is ${accepted ? "accepted, and echoed as a string," : "refused with param cases[0].id"} by the endpoint`, async () => {
    const response = await service.post("/v1/verified/eval", {
      model: "local",
      cases: [{ id, messages, sources }],
    });
    if (accepted) {
      expect(response.status).toBe(200);
      expect(response.body.cases[0].id).toBe(String(id));
    } else {
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ type: "invalid_request", param: "cases[0].id" });
    }
  });

  it(`is ${accepted ? "accepted" : "refused"} by the CLI's dataset reader`, async () => {
    const path = join(scratch, `${name.replaceAll(" ", "-")}.jsonl`);
    writeFileSync(path, `${JSON.stringify({ id, messages, sources })}\n`);
    const reading = readDataset(path);
    if (accepted) await expect(reading).resolves.toEqual([{ id: String(id), messages, sources }]);
    else await expect(reading).rejects.toThrow(/line 1: "id" /);
  });

  it(`is ${accepted ? "accepted" : "refused before any request"} by the client's evalAll`, async () => {
    let requests = 0;
    const client = new Verified({
      baseURL: service.url,
      fetch: (url, init) => {
        requests += 1;
        return fetch(url, init);
      },
    });
    const running = client.evalAll({
      model: "local",
      cases: [{ id: id as string | number, messages, sources }],
    });
    if (accepted) {
      const result = await running;
      expect(result.cases[0]?.id).toBe(String(id));
    } else {
      await expect(running).rejects.toThrow(new RangeError(`"cases[0].id" ${evalCaseIdProblem(id)}.`));
      expect(requests).toBe(0);
    }
  });
});
