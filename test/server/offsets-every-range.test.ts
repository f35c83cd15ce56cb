import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OffsetUnit } from "../../src/wire/index.js";
import { parseEventStream } from "../support/event-stream.js";
import { claimsContent, question, startWithGateway } from "./harness.js";

// `offsets` honoured by every range of every result (issue 34 item 4), as a property per endpoint and unit:
// generated sources and answers full of characters whose units differ (astral letters, emoji with modifiers
// and joiners, combining marks, CJK, CRLF), sent to every endpoint that returns a range. Every range field of
// every answer is found by walking the JSON (a field ending in `range` that no rule below knows fails the
// test, so a new range field cannot slip past), and each is cut as the unit's language cuts text:
// - `range` beside `quote` or `value`: the source's text there is the quote (or the value);
// - `near.range`: the named source's text there is `near.quote`;
// - `answer_range`: the answer's text there is the text the same entry's UTF-16 range names;
// - an eval case's `match.range`: the matched claim's text there is what the UTF-16 range names.

const units: OffsetUnit[] = ["utf16", "codepoint", "utf8"];

/** The text `range` names in `unit`, cut as that unit's language cuts it. */
function sliceIn(unit: OffsetUnit, text: string, [start, end]: [number, number]): string {
  if (unit === "utf16") return text.slice(start, end);
  if (unit === "codepoint") return Array.from(text).slice(start, end).join("");
  return Buffer.from(text, "utf8").subarray(start, end).toString("utf8");
}

// Pieces whose lengths differ by unit; each sentence of a source starts with a few of them.
const prefixes = ["😀", "👩🏽‍💻", "𝔘lm", "cafe\u0301", "Café", "東京", "naïve", "Ωmega"];
const subjects = ["Harbour", "Depot", "Museum", "Bridge", "Library", "Station"];
const verbs = ["opened", "closed", "expanded", "reopened"];

interface Case {
  /** Source `s`: sentences `${prefix} The ${subject} ${verb} in ${year}.`, joined by CRLF or a space. */
  source: string;
  sentences: string[];
  /** A prose answer citing `s`: some sentences as the source has them, some with a wrong year, one invented. */
  answer: string;
  /** Claims quoting the source: as it is, with the case changed (a strict near miss), and invented. */
  claims: { claim: string; quote: string; source: string }[];
  /** An expected answer an eval case's grounded claim holds, after the claim's astral prefix. */
  expected: string;
  /** A prose answer none of whose sentences holds: a wrong year, and an invented sentence. */
  ungrounded: string;
}

const sentenceArb = fc.record({
  prefix: fc.array(fc.constantFrom(...prefixes), { minLength: 1, maxLength: 3 }),
  subject: fc.constantFrom(...subjects),
  verb: fc.constantFrom(...verbs),
  year: fc.integer({ min: 1800, max: 2030 }),
});

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    parts: fc.array(sentenceArb, { minLength: 2, maxLength: 5 }),
    joins: fc.array(fc.constantFrom(" ", "\r\n", "\r\n\r\n"), { minLength: 5, maxLength: 5 }),
    answerPrefix: fc.constantFrom(...prefixes),
  })
  .map(({ parts, joins, answerPrefix }) => {
    const sentences = parts.map(
      (part, index) => `${part.prefix.join(" ")} The ${part.subject}${index} ${part.verb} in ${part.year}.`,
    );
    const source = sentences.map((sentence, index) => sentence + (joins[index] ?? " ")).join("");
    const wrongYear = (sentence: string) => sentence.replace(/\d{4}\.$/, (year) => `${Number(year) + 1}.`);
    const answer = [
      `${answerPrefix} ${sentences[0]?.slice(0, -1)} [s].`,
      `${wrongYear(sentences[1] as string).slice(0, -1)} [s].`,
      ...sentences.slice(2).map((sentence) => `${sentence.slice(0, -1)} [s].`),
      "Zebras 🦓 graze on the moon [s].",
    ].join("\r\n");
    const first = sentences[0] as string;
    const claims = [
      { claim: first, quote: first, source: "s" },
      { claim: "changed case", quote: (sentences[1] as string).toUpperCase(), source: "s" },
      { claim: "invented 😀", quote: "Zebras 🦓 graze on the moon", source: "s" },
    ];
    const expected = `${parts[0]?.subject}0`;
    const ungrounded = [
      `${answerPrefix} ${wrongYear(sentences[1] as string).slice(0, -1)} [s].`,
      "Zebras 🦓 graze on the moon [s].",
    ].join("\r\n");
    return { source, sentences, answer, claims, expected, ungrounded };
  });

/** Every range field of `value` (a whole answer) checked against the texts it counts into. */
function checkRanges(
  unit: OffsetUnit,
  value: unknown,
  utf16: unknown,
  texts: { sources: Map<string, string>; answer?: string },
  path = "",
  context: { source?: string | undefined; claims?: string[] | undefined } = {},
): number {
  if (Array.isArray(value)) {
    return value.reduce<number>(
      (sum, item, index) =>
        sum + checkRanges(unit, item, (utf16 as unknown[])[index], texts, `${path}[${index}]`, context),
      0,
    );
  }
  if (value === null || typeof value !== "object") return 0;
  const entry = value as Record<string, unknown>;
  const twin = utf16 as Record<string, unknown>;
  const source = typeof entry.source === "string" ? entry.source : context.source;
  // An eval case's `match` counts into a claim of its `result`.
  const result = entry.result as { citations?: { claim: string }[] } | undefined;
  const claims = Array.isArray(result?.citations)
    ? result.citations.map((citation) => citation.claim)
    : context.claims;
  let checked = 0;
  for (const [key, field] of Object.entries(entry)) {
    const where = `${path}.${key}`;
    if (!key.endsWith("range")) {
      checked += checkRanges(unit, field, twin[key], texts, where, { source, claims });
      continue;
    }
    const range = field as [number, number];
    if (key === "answer_range") {
      expect(texts.answer, where).toBeDefined();
      const answer = texts.answer as string;
      expect(sliceIn(unit, answer, range), where).toBe(
        sliceIn("utf16", answer, twin[key] as [number, number]),
      );
    } else if (key === "range" && typeof entry.quote === "string") {
      expect(sliceIn(unit, texts.sources.get(source as string) as string, range), where).toBe(entry.quote);
    } else if (key === "range" && typeof entry.value === "string") {
      expect(sliceIn(unit, texts.sources.get(source as string) as string, range), where).toBe(entry.value);
    } else if (key === "range" && typeof entry.expected === "string" && typeof entry.citation === "number") {
      const claim = (context.claims ?? [])[entry.citation];
      expect(claim, `${where}: the matched claim's text`).toBeDefined();
      expect(sliceIn(unit, claim as string, range), where).toBe(
        sliceIn("utf16", claim as string, twin[key] as [number, number]),
      );
    } else {
      throw new Error(`${where}: a range field no rule of this test knows`);
    }
    checked += 1;
  }
  return checked;
}

async function postText(url: string, path: string, body: unknown, status = 200): Promise<string> {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(status);
  return text;
}

/** The events of a stream whose data holds ranges, as one array (the `done` answer last). */
const eventData = (text: string) => parseEventStream(text).events.map((event) => event.data);

/** The `verification` objects of a streamed chat completion's chunks. */
const chatReports = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice(6)) as { verification?: unknown })
    .flatMap((chunk) => (chunk.verification === undefined ? [] : [chunk.verification]));

describe("offsets: every range of every result, per endpoint and unit (property)", () => {
  it("check, create, eval and the drop-in chat route, JSON and streamed, claims and prose", async () => {
    const { gateway, service } = await startWithGateway();
    let reply = "";
    gateway.script(() => reply);
    const perEndpoint = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(caseArb, async (example) => {
        const sources = [{ id: "s", text: example.source }];
        const texts = { sources: new Map([["s", example.source]]) };
        const prose = { ...texts, answer: example.answer };
        const claimsReply = claimsContent(...example.claims);
        const evalCases = [{ messages: question, sources, expected: example.expected }];
        const endpoints: {
          name: string;
          reply: string;
          path: string;
          body: (unit: OffsetUnit) => unknown;
          read: (text: string) => unknown;
          texts: typeof texts & { answer?: string };
          status?: number;
        }[] = [
          {
            name: "check, claims",
            reply: "",
            path: "/v1/verified/check",
            body: (offsets) => ({ sources, claims: example.claims, offsets }),
            read: JSON.parse,
            texts,
          },
          {
            name: "check, answer",
            reply: "",
            path: "/v1/verified/check",
            body: (offsets) => ({ sources, answer: example.answer, offsets, explain: true }),
            read: JSON.parse,
            texts: prose,
          },
          ...[false, true].flatMap((stream) => {
            const streamed = stream ? ", streamed" : "";
            const read = stream ? eventData : JSON.parse;
            /** A create or an eval (with details) of `reply`, claims or prose. */
            const operation = (
              name: string,
              path: string,
              modelReply: string,
              answer: string | undefined,
              status = 200,
            ) => ({
              name: `${name}${streamed}`,
              reply: modelReply,
              path,
              body: (offsets: OffsetUnit) => ({
                model: "gpt-test",
                ...(path === "/v1/verified/eval"
                  ? { cases: evalCases, details: true }
                  : { messages: question, sources }),
                offsets,
                stream,
                ...(answer === undefined ? {} : { answer_format: "text" }),
              }),
              read,
              texts: answer === undefined ? texts : { ...texts, answer },
              status: stream ? 200 : status,
            });
            return [
              operation("create, claims", "/v1/verified", claimsReply, undefined),
              operation("create, prose", "/v1/verified", example.answer, example.answer),
              // Nothing holds: 422 ungrounded (streamed: an `error` event), its failed claims in the error body.
              operation(
                "create, claims, ungrounded",
                "/v1/verified",
                claimsContent(...example.claims.slice(1)),
                undefined,
                422,
              ),
              operation(
                "create, prose, ungrounded",
                "/v1/verified",
                example.ungrounded,
                example.ungrounded,
                422,
              ),
              operation("eval details, claims", "/v1/verified/eval", claimsReply, undefined),
              operation("eval details, prose", "/v1/verified/eval", example.answer, example.answer),
              {
                name: `chat completions${streamed}`,
                reply: example.answer,
                path: "/v1/chat/completions",
                body: (offsets: OffsetUnit) => ({
                  model: "m",
                  messages: question,
                  stream,
                  verification: { sources, offsets, explain: true },
                }),
                read: stream ? chatReports : (text: string) => JSON.parse(text).verification,
                texts: prose,
              },
            ];
          }),
        ];
        for (const endpoint of endpoints) {
          reply = endpoint.reply;
          const answers = new Map<OffsetUnit, unknown>();
          for (const unit of units) {
            const text = await postText(service.url, endpoint.path, endpoint.body(unit), endpoint.status);
            answers.set(unit, endpoint.read(text));
          }
          for (const unit of units) {
            const checked = checkRanges(
              unit,
              answers.get(unit),
              answers.get("utf16"),
              endpoint.texts,
              endpoint.name,
            );
            perEndpoint.set(endpoint.name, (perEndpoint.get(endpoint.name) ?? 0) + checked);
          }
        }
      }),
      { seed: 3_404, numRuns: 8 },
    );
    // Each endpoint answered ranges to check (a walk that found none would pass on anything).
    expect([...perEndpoint.values()].every((count) => count > 0)).toBe(true);
    expect(perEndpoint.size).toBe(16);
  }, 240_000);
});
