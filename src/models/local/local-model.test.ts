import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitSentences } from "../../core/blocks/sentences.js";
import { verifyClaims } from "../../core/claims/verify-claims.js";
import { verifyFields } from "../../core/fields/verify-fields.js";
import type { Source } from "../../core/types.js";
import { sampleQuestion, sampleSchema, sampleSources } from "../../sample.js";
import type { ChatMessage, GenerateRequest, GenerateTask } from "../types.js";
import { CLAIM_CHARS_PER_STEP, claimSentenceSteps } from "./claim-sentences.js";
import { createLocalModel, LOCAL_MODEL_ID } from "./local-model.js";
import { countTokens } from "./terms.js";

const model = createLocalModel();

function request(task: GenerateTask, messages: ChatMessage[] = []): GenerateRequest {
  return { model: LOCAL_MODEL_ID, messages, task };
}

function claimsTask(sources: Source[], question: string): GenerateTask {
  return { kind: "claims", sources, messages: [{ role: "user", content: question }] };
}

interface ClaimsOutput {
  claims: { claim: string; quote: string; source: string }[];
}

async function claimsFor(sources: Source[], question: string): Promise<ClaimsOutput> {
  const result = await model.generate(request(claimsTask(sources, question)));
  return JSON.parse(result.content) as ClaimsOutput;
}

describe("createLocalModel: claims", () => {
  it("answers the sample question with two sentences the strict checker grounds, best first", async () => {
    const output = await claimsFor(sampleSources, sampleQuestion);
    const first =
      "The strongest quarter was Q4, with revenue of $5.6 million and an operating profit of $1.1 million.";
    const second = "Revenue for 2024 was $18.4 million, a growth of 22% over 2023.";
    expect(output).toEqual({
      claims: [
        { claim: first, quote: first, source: "annual-report-2024" },
        { claim: second, quote: second, source: "annual-report-2024" },
      ],
    });
    const checked = verifyClaims(sampleSources, output.claims, { mode: "strict", checkNumbers: "source" });
    expect(checked.unsupported).toEqual([]);
    expect(checked.coverage).toBe(1);
  });

  it.each([
    { name: "no shared word", question: "Who painted the Mona Lisa?" },
    { name: "only the company's name shared", question: "What is Northwind's favorite color?" },
    { name: "only question words", question: "What is it?" },
  ])("irrelevant question ($name): no claims", async ({ question }) => {
    const result = await model.generate(request(claimsTask(sampleSources, question)));
    expect(result.content).toBe('{"claims":[]}');
  });

  it("answers the latest user message, not earlier turns, assistant or system messages", async () => {
    const task: GenerateTask = {
      kind: "claims",
      sources: sampleSources,
      messages: [
        { role: "system", content: "Who is the chief executive?" },
        { role: "user", content: "Who painted the Mona Lisa?" },
        { role: "user", content: "What was the operating profit in Q3?" },
        { role: "assistant", content: "Headquarters?" },
      ],
    };
    const output = JSON.parse((await model.generate(request(task))).content) as ClaimsOutput;
    expect(output.claims.map((claim) => claim.quote)).toEqual(["| Q3 2024 | 4.7 | 0.8 |"]);
  });

  it("no user message: no claims", async () => {
    const task: GenerateTask = { kind: "claims", sources: sampleSources, messages: [] };
    expect((await model.generate(request(task))).content).toBe('{"claims":[]}');
  });

  it.each([
    {
      name: "German",
      sources: [
        {
          id: "de",
          text: "Der Umsatz stieg 2023 auf 12,5 Millionen Euro. Größter Kunde ist die Stadtwerke Köln AG.",
        },
      ],
      question: "Wer ist der groesste Kunde? Größter Kunde?",
      quotes: ["Größter Kunde ist die Stadtwerke Köln AG."],
    },
    {
      name: "Japanese",
      sources: [
        {
          id: "ja",
          text: "株式会社サクラは2010年に東京で設立された。2023年の売上高は42億円で、前年比12%増加した。",
        },
      ],
      question: "サクラの売上高は？",
      quotes: ["株式会社サクラは2010年に東京で設立された。", "2023年の売上高は42億円で、前年比12%増加した。"],
    },
  ])("non-Latin and accented text: $name", async ({ sources, question, quotes }) => {
    const output = await claimsFor(sources, question);
    expect(output.claims.map((claim) => claim.quote)).toEqual(quotes);
    expect(verifyClaims(sources, output.claims, { mode: "strict" }).coverage).toBe(1);
  });

  it("for any sources and question: valid contract JSON, at most three distinct whole sentences of their sources, each grounded", async () => {
    const alphabet = [..."abc de Fgh 4.2 Q3 äß É 東京 サクラ は 。. ! ? \n\n | - # * : "];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 100 }).map((chars) => chars.join(""));
    const sources = fc.uniqueArray(fc.record({ id: fc.constantFrom("a", "b", "c"), text }), {
      selector: (source) => source.id,
      maxLength: 3,
    });
    await fc.assert(
      fc.asyncProperty(sources, text, async (sample, question) => {
        const output = JSON.parse((await model.generate(request(claimsTask(sample, question)))).content);
        expect(Object.keys(output)).toEqual(["claims"]);
        expect(output.claims.length).toBeLessThanOrEqual(3);
        const quoted = new Set<string>();
        for (const claim of output.claims) {
          expect(Object.keys(claim)).toEqual(["claim", "quote", "source"]);
          expect(claim.claim).toBe(claim.quote);
          // The model quotes whole sentences (as the core splits them), never a piece of one or a span
          // across two, and each sentence once.
          const sourceText = sample.find((source) => source.id === claim.source)?.text ?? "";
          const sentences = splitSentences(sourceText).map((sentence) => sentence.text);
          expect(sentences).toContain(claim.quote);
          expect(quoted.has(claim.quote)).toBe(false);
          quoted.add(claim.quote);
        }
        expect(verifyClaims(sample, output.claims, { mode: "strict" }).unsupported).toEqual([]);
      }),
    );
  });
});

describe("createLocalModel: fields", () => {
  it("extracts the sample schema as the contract's JSON, and the checker grounds every value", async () => {
    const result = await model.generate(
      request({ kind: "fields", sources: sampleSources, schema: sampleSchema }),
    );
    const output = JSON.parse(result.content) as {
      fields: Record<string, { value: string; source: string }>;
    };
    expect(output).toEqual({
      fields: {
        company_name: { value: "Northwind Analytics SAS", source: "fact-sheet" },
        ceo: { value: "Amélie Durand", source: "fact-sheet" },
        headquarters: { value: "Lyon, France", source: "fact-sheet" },
        employee_count: { value: "240", source: "fact-sheet" },
      },
    });
    expect(verifyFields(sampleSources, output.fields, { mode: "strict" }).coverage).toBe(1);
  });

  it("a field with nothing relevant is null/null; a field named __proto__ stays a plain key", async () => {
    const schema = JSON.parse('{"iban": "bank account IBAN", "__proto__": "prototype"}') as Record<
      string,
      string
    >;
    const result = await model.generate(request({ kind: "fields", sources: sampleSources, schema }));
    expect(result.content).toBe(
      '{"fields":{"iban":{"value":null,"source":null},"__proto__":{"value":null,"source":null}}}',
    );
  });

  it("for any sources and fields: valid contract JSON, every value a verbatim slice of its source", async () => {
    const alphabet = [..."ab Cd 12 : = — | \n is , . ** total date 東京 ä"];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 80 }).map((chars) => chars.join(""));
    const schema = fc.dictionary(
      fc.constantFrom("total", "date", "ab", "cd_total"),
      fc.constantFrom("the total", "a date"),
    );
    await fc.assert(
      fc.asyncProperty(text, schema, async (sample, fields) => {
        const sources = [{ id: "s", text: sample }];
        const output = JSON.parse(
          (await model.generate(request({ kind: "fields", sources, schema: fields }))).content,
        );
        expect(Object.keys(output.fields)).toEqual(Object.keys(fields));
        for (const field of Object.values(output.fields) as {
          value: string | null;
          source: string | null;
        }[]) {
          if (field.value === null) expect(field.source).toBeNull();
          else expect(sample.includes(field.value) && field.source === "s").toBe(true);
        }
      }),
    );
  });
});

describe("createLocalModel: plain answer", () => {
  it.each([
    {
      name: "names the question",
      messages: [{ role: "user", content: "  Who painted\nthe Mona Lisa? " }] as ChatMessage[],
      text: 'I answer only from the supplied sources, and I could not ground an answer to "Who painted the Mona Lisa?" in them.',
    },
    {
      name: "a long question is shortened",
      messages: [{ role: "user", content: `Why ${"very ".repeat(40)}much?` }] as ChatMessage[],
      text: `I answer only from the supplied sources, and I could not ground an answer to "Why ${"very ".repeat(23)}v…" in them.`,
    },
    {
      name: "no question",
      messages: [] as ChatMessage[],
      text: "I answer only from the supplied sources, and I could not ground an answer in them.",
    },
  ])("$name", async ({ messages, text }) => {
    const result = await model.generate(request({ kind: "answer", messages }));
    expect(result.content).toBe(text);
  });
});

describe("createLocalModel: usage, determinism, abort, speed", () => {
  it("counts the prompt's messages and the output", async () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "Answer from the sources." },
      { role: "user", content: "Sources: ... Question: What was the operating profit in Q3?" },
    ];
    const result = await model.generate(
      request(claimsTask(sampleSources, "What was the operating profit in Q3?"), messages),
    );
    const promptTokens = countTokens(messages[0]?.content ?? "") + countTokens(messages[1]?.content ?? "");
    const completionTokens = countTokens(result.content);
    expect(result.usage).toEqual({
      promptTokens,
      completionTokens,
      totalTokens: promptTokens + completionTokens,
    });
  });

  it("without messages, counts the task's own text", async () => {
    const result = await model.generate(
      request({ kind: "fields", sources: [{ id: "a", text: "Total: 12" }], schema: { total: "sum" } }),
    );
    expect(result.usage.promptTokens).toBe(
      countTokens("Total: 12") + countTokens("total") + countTokens("sum"),
    );
  });

  it("same input, same output", async () => {
    const task = claimsTask(sampleSources, sampleQuestion);
    const [first, second] = await Promise.all([
      model.generate(request(task)),
      createLocalModel().generate(request(task)),
    ]);
    expect(second).toEqual(first);
  });

  it("rejects when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("caller went away"));
    const aborted = { ...request(claimsTask(sampleSources, sampleQuestion)), signal: controller.signal };
    await expect(model.generate(aborted)).rejects.toThrow("caller went away");
  });

  it("answers from 100,000 characters of sources, reading them in steps whose number grows with their size", async () => {
    // How long this takes is measured by `npm run bench -- local-model` (a test asserts no time): here, the
    // answer is right, and the claim search is cut into steps in proportion to the sources it reads.
    const sourcesOf = (totalChars: number): Source[] => {
      const sources: Source[] = [];
      for (
        let index = 0;
        sources.reduce((sum, source) => sum + source.text.length, 0) < totalChars;
        index++
      ) {
        sources.push({
          id: `part-${index}`,
          text: (sampleSources[index % 2] as Source).text.replace(/Q3/g, `Q${index}`),
        });
      }
      return sources;
    };
    const sources = sourcesOf(100_000);
    const claims = await model.generate(request(claimsTask(sources, sampleQuestion)));
    const fields = await model.generate(request({ kind: "fields", sources, schema: sampleSchema }));
    expect(JSON.parse(claims.content).claims.length).toBeGreaterThan(0);
    expect(JSON.parse(fields.content).fields.ceo.value).toBe("Amélie Durand");

    const steps = (totalChars: number) => {
      const run = claimSentenceSteps(sourcesOf(totalChars), sampleQuestion);
      let count = 0;
      while (run.next().done !== true) count++;
      return count;
    };
    const [small, large] = [steps(100_000), steps(400_000)];
    expect(small).toBeGreaterThanOrEqual(Math.floor(100_000 / CLAIM_CHARS_PER_STEP));
    expect(large / small).toBeGreaterThan(3);
    expect(large / small).toBeLessThan(5);
  });
});

describe("createLocalModel: streaming", () => {
  it("opens, then gives each claim object as its own piece, and the pieces join to the content", async () => {
    const seen: string[] = [];
    const result = await model.generate({
      ...request(claimsTask(sampleSources, sampleQuestion)),
      stream: { onOpen: () => seen.push("open"), onText: (text) => seen.push(text) },
    });

    expect(seen[0]).toBe("open");
    expect(seen.slice(1).join("")).toBe(result.content);
    const claims = (JSON.parse(result.content) as ClaimsOutput).claims;
    expect(seen.slice(1)).toEqual([
      '{"claims":[',
      JSON.stringify(claims[0]),
      ",",
      JSON.stringify(claims[1]),
      "]}",
    ]);
  });

  it("gives a plain answer in one piece", async () => {
    const seen: string[] = [];
    const result = await model.generate({
      ...request({ kind: "answer", messages: [{ role: "user", content: "Why?" }] }),
      stream: { onOpen: () => undefined, onText: (text) => seen.push(text) },
    });

    expect(seen).toEqual([result.content]);
  });
});

describe("createLocalModel: prose with citation markers", () => {
  const proseTask = (sources: Source[], question: string): GenerateTask => ({
    kind: "prose",
    sources,
    messages: [{ role: "user", content: question }],
  });

  it("writes the sentences the claims would quote, each followed by its source's marker", async () => {
    const claims = await claimsFor(sampleSources, sampleQuestion);
    const result = await model.generate(request(proseTask(sampleSources, sampleQuestion)));
    expect(result.content).toBe(claims.claims.map((claim) => `${claim.quote} [${claim.source}]`).join(" "));
  });

  it("cites by position a source whose id a marker cannot spell, and ends a line after a sentence without end punctuation", async () => {
    const sources: Source[] = [
      { id: "annual report", text: "Revenue for 2024 was $18.4 million" },
      { id: "notes", text: "Revenue rose in 2024 because of the new plant." },
    ];
    const result = await model.generate(request(proseTask(sources, "What was revenue?")));
    expect(result.content).toBe(
      "Revenue for 2024 was $18.4 million [1]\nRevenue rose in 2024 because of the new plant. [notes]",
    );
  });

  it("streams one piece per sentence, joined the reply", async () => {
    const pieces: string[] = [];
    const result = await model.generate({
      ...request(proseTask(sampleSources, sampleQuestion)),
      stream: { onOpen: () => {}, onText: (text) => pieces.push(text) },
    });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(result.content);
  });

  it("abstains with an empty answer when no sentence answers", async () => {
    const result = await model.generate(request(proseTask(sampleSources, "Who painted the Mona Lisa?")));
    expect(result.content).toBe("");
  });
});
