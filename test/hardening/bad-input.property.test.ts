import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorRegistry } from "../../src/errors/error-registry.js";
import { parseEventStream } from "../support/event-stream.js";
import {
  type RecordedCall,
  type ScriptedGateway,
  startScriptedGateway,
} from "../support/scripted-gateway.js";
import { type RunningService, startService } from "../support/start-service.js";
import { expectCitationsSlice, expectFieldsSlice, expectRegistryError } from "./expect-response.js";
import { createRawClient, type RawClient, type RawRequest } from "./raw-client.js";

// Random and adversarial bodies at every endpoint, through real HTTP: every answer is a 4xx error from the
// registry or a 200 whose citations and field values all slice to their quotes; never a 5xx, never a hang.
// Bodies start valid (model "local", or a scripted gateway model that quotes the prompt's sources) and are
// then broken: wrong types anywhere, fields dropped or added, raw-text damage, `__proto__`/`constructor`
// keys, other content types; plus huge strings, 10,000 sources and deep nesting.

const paths = ["/v1/verified", "/v1/verified/extract", "/v1/verified/eval", "/v1/verified/check"] as const;
type Path = (typeof paths)[number];

/** Text fragments that have broken Unicode and text handling elsewhere. */
const specials = [
  "\ud800", // lone high surrogate
  "\udfff", // lone low surrogate
  "\udbff\udfff", // the last code point, as a pair
  "e\u0301", // combining acute
  "\u0308\u0308", // combining marks with no base
  "مرحبا بالعالم", // Arabic, right to left
  "שלום", // Hebrew
  "\u202e", // right-to-left override
  "\u200f", // right-to-left mark
  "\u200b", // zero-width space
  "\u200d", // zero-width joiner
  "\ufeff", // byte order mark
  "\u00ad", // soft hyphen
  "\u0000", // NUL
  "\r\n",
  "\r",
  "\u2028", // line separator
  "\t",
  "😀",
  "👩‍👩‍👧", // a family: emoji joined by ZWJs
  "🇫🇷",
  '"',
  "\\",
  "</source>",
  '<source id="x">',
  "İ",
  "ß",
  "ﬁ",
  "１２３", // full-width digits
  "。",
];
const words = [
  "Lyon ",
  "river ",
  "founded ",
  "2016 ",
  "$18.4 ",
  "million ",
  "City: ",
  "Name: ",
  "12% ",
  ". ",
];
const unit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...words) },
  { weight: 2, arbitrary: fc.constantFrom(...specials) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 3 }) },
);
const text = fc.string({ unit, maxLength: 24 });
const nonEmptyText = fc.string({ unit, minLength: 1, maxLength: 24 });
const id = fc.oneof(
  fc.string({ unit, minLength: 1, maxLength: 3 }),
  fc.constantFrom("a", "b", "😀", "\u0000", "__proto__", "constructor", "toString", " ", "ا"),
);

const message = fc.record({ role: fc.constantFrom("system", "user", "assistant"), content: text });
const messages = fc.array(message, { minLength: 1, maxLength: 3 });
const sources = fc.uniqueArray(fc.record({ id, text }), { selector: (source) => source.id, maxLength: 4 });
const model = fc.constantFrom("local", "local", "gpt-test");
const options = {
  mode: fc.constantFrom("strict", "lenient"),
  check_numbers: fc.constantFrom(true, false, "source", "row"),
  retry: fc.integer({ min: 0, max: 2 }),
  min_coverage: fc.double({ min: 0, max: 1, noNaN: true }),
};

const createBody = fc.record(
  {
    model,
    messages,
    sources,
    ...options,
    allow_ungrounded: fc.boolean(),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    max_tokens: fc.integer({ min: 1, max: 4096 }),
  },
  { requiredKeys: ["model", "messages", "sources"] },
);
const extractBody = fc.record(
  {
    model,
    sources,
    schema: fc.dictionary(
      fc.oneof(fc.constantFrom("city", "name", "constructor", "toString", "valueOf"), nonEmptyText),
      nonEmptyText,
      { minKeys: 1, maxKeys: 4 },
    ),
    mode: options.mode,
  },
  { requiredKeys: ["model", "sources", "schema"] },
);
const evalBody = fc.record(
  {
    model,
    cases: fc.array(fc.record({ messages, sources }), { minLength: 1, maxLength: 3 }),
    ...options,
  },
  { requiredKeys: ["model", "cases"] },
);
/** Claims quoting slices of the sources (some cutting a surrogate pair in half), and some made up. */
const checkBody = fc
  .record(
    {
      sources,
      picks: fc.array(fc.tuple(fc.nat(), fc.nat(30), fc.nat(30), fc.boolean()), { maxLength: 4 }),
      claimText: text,
      ...options,
    },
    { requiredKeys: ["sources", "picks", "claimText"] },
  )
  .map(({ sources: chosen, picks, claimText, ...rest }) => ({
    ...rest,
    sources: chosen,
    claims: picks.map(([which, start, length, named]) => {
      const source = chosen[which % Math.max(chosen.length, 1)] ?? { id: "missing", text: "made up" };
      const quote = source.text.slice(start, start + length);
      return named ? { claim: claimText, quote, source: source.id } : { quote, source: source.id };
    }),
  }));

const bodies: Record<Path, fc.Arbitrary<Record<string, unknown>>> = {
  "/v1/verified": createBody,
  "/v1/verified/extract": extractBody,
  "/v1/verified/eval": evalBody,
  "/v1/verified/check": checkBody,
};

/** A value of any JSON type, some of them large. */
const anyValue = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, "", " ", [], {}, "local", "strict"),
  fc.jsonValue({ maxDepth: 2 }),
  text,
  fc.nat(5).map((size) => "x".repeat(10 ** size)),
);
const extraKey = fc.oneof(
  fc.constantFrom(
    "url",
    "base_url",
    "baseURL",
    "headers",
    "host",
    "gateway_url",
    "api_key",
    "authorization",
    "maxTokens",
    "allowUngrounded",
    "stream",
    "tools",
    "",
  ),
  text,
);

/** Every path to a value inside `value` (the root excluded), as key lists. */
function pathsIn(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== "object" || value === null) return [];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [index, item] as const)
    : Object.entries(value);
  return entries.flatMap(([key, item]) => [[...prefix, key], ...pathsIn(item, [...prefix, key])]);
}

/** Objects inside `value`, the root included, as key lists. */
function objectsIn(value: unknown): (string | number)[][] {
  return [[], ...pathsIn(value)].filter((path) => {
    const found = get(value, path);
    return typeof found === "object" && found !== null && !Array.isArray(found);
  });
}

function get(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value;
  for (const key of path) current = (current as Record<string | number, unknown>)[key];
  return current;
}

function cloneWith(
  value: Record<string, unknown>,
  path: readonly (string | number)[],
  change: (parent: Record<string | number, unknown>, key: string | number) => void,
) {
  const copy = structuredClone(value);
  const parent = get(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  change(parent, path.at(-1) as string | number);
  return copy;
}

type Damage =
  | { kind: "none" }
  | { kind: "wrong_type"; pick: number; value: unknown }
  | { kind: "drop"; pick: number }
  | { kind: "extra"; pick: number; key: string; value: unknown }
  | { kind: "truncate"; at: number }
  | { kind: "proto"; pick: number; key: "__proto__" | "\\u005f_proto__" | "constructor" }
  | { kind: "invalid_utf8"; at: number }
  | { kind: "bom" }
  | { kind: "content_type"; contentType: string | null }
  | { kind: "authorization"; header: string | null };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: "none" as const }) },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant("wrong_type" as const), pick: fc.nat(), value: anyValue }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("drop" as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("extra" as const),
      pick: fc.nat(),
      key: extraKey,
      value: anyValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("proto" as const),
      pick: fc.nat(),
      key: fc.constantFrom("__proto__" as const, "\\u005f_proto__" as const, "constructor" as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("invalid_utf8" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "bom" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("content_type" as const),
      contentType: fc.constantFrom(
        null,
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=utf-16",
        "application/json; charset=latin1",
        "application/JSON",
        "application/json;charset=UTF-8",
        "application/vnd.api+json",
        "application/json, text/plain",
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("authorization" as const),
      header: fc.constantFrom(
        null,
        "",
        "Bearer",
        "Basic dXNlcjpwYXNz",
        "Bearer a b",
        "bearer\tk",
        "Bearer k ",
      ),
    }),
  },
);

/** A request on the wire: the body as sent, with the headers the damage chose. */
function toRequest(path: Path, body: Record<string, unknown>, hurt: Damage): RawRequest {
  const headers: Record<string, string> = { "content-type": "application/json", authorization: "Bearer k" };
  const choose = <T>(items: T[], pick: number) => items[pick % items.length];
  let value: unknown = body;
  let raw: string | Buffer | undefined;
  switch (hurt.kind) {
    case "wrong_type": {
      const target = choose(pathsIn(body), hurt.pick);
      value =
        target === undefined
          ? hurt.value
          : cloneWith(body, target, (parent, key) => (parent[key] = hurt.value));
      break;
    }
    case "drop": {
      const target = choose(pathsIn(body), hurt.pick);
      if (target !== undefined)
        value = cloneWith(body, target, (parent, key) =>
          Array.isArray(parent) ? parent.splice(Number(key), 1) : delete parent[key],
        );
      break;
    }
    case "extra": {
      const target = choose(objectsIn(body), hurt.pick) ?? [];
      const copy = structuredClone(body);
      Object.defineProperty(get(copy, target), hurt.key, { value: hurt.value, enumerable: true });
      value = copy;
      break;
    }
    case "truncate": {
      const json = JSON.stringify(body);
      raw = json.slice(0, hurt.at % json.length);
      break;
    }
    case "proto": {
      // Written into the text, since JSON.stringify never emits an own `__proto__` key.
      const json = JSON.stringify(body);
      const opens = [...json.matchAll(/\{/g)].map((match) => match.index);
      const at = (choose(opens, hurt.pick) ?? 0) + 1;
      const payload =
        hurt.key === "constructor"
          ? '"constructor": {"prototype": {"polluted": "yes"}}'
          : `"${hurt.key}": {"polluted": "yes"}`;
      const rest = json.slice(at);
      raw = `${json.slice(0, at)}${payload}${rest.startsWith("}") ? "" : ", "}${rest}`;
      break;
    }
    case "invalid_utf8": {
      const bytes = Buffer.from(JSON.stringify(body));
      const at = hurt.at % bytes.length;
      raw = Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        bytes.subarray(at),
      ]);
      break;
    }
    case "bom":
      raw = `\ufeff${JSON.stringify(body)}`;
      break;
    case "content_type":
      if (hurt.contentType === null) delete headers["content-type"];
      else headers["content-type"] = hurt.contentType;
      break;
    case "authorization":
      if (hurt.header === null) delete headers.authorization;
      else headers.authorization = hurt.header;
      break;
    case "none":
      break;
  }
  return { path, headers, body: raw ?? JSON.stringify(value), timeoutMs: 20_000 };
}

const request = fc
  .tuple(fc.constantFrom(...paths), damage)
  .chain(([path, hurt]) => bodies[path].map((body) => toRequest(path, body, hurt)));

/** The fields of a body that the service accepted, which the checks of its 200 read. */
interface SentBody {
  sources: { id: unknown; text: unknown }[];
  schema: Record<string, string>;
  cases: unknown[];
}

/** Parses a body the service accepted the way it does: UTF-8, any byte order mark dropped. */
function sentBody(sent: RawRequest): SentBody {
  const textSent = Buffer.isBuffer(sent.body) ? sent.body.toString("utf8") : (sent.body ?? "");
  return JSON.parse(textSent.replace(/^\ufeff/, "")) as SentBody;
}

let gateway: ScriptedGateway;
let service: RunningService;
let client: RawClient;
const tally = { requests: 0, ok: 0, statuses: new Map<number, number>() };

/** Sends one request and checks the invariants of its answer. */
async function sendAndCheck(sent: RawRequest): Promise<void> {
  const response = await client.send(sent);
  tally.requests += 1;
  tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
  const where = `${sent.path} answered ${response.status}: ${response.text.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  // An extra `"stream": true` on create or eval is a valid request for an event stream; its last event is
  // the result or the error body.
  let result = response.json;
  if (response.status === 200 && String(response.headers["content-type"]).startsWith("text/event-stream")) {
    const last = parseEventStream(response.text).events.at(-1);
    if (last?.event === "error") {
      expectRegistryError(
        errorRegistry[last.data.error.type as keyof typeof errorRegistry].status,
        last.data,
      );
      return;
    }
    expect(last?.event, where).toBe("done");
    result = last?.data;
  } else expect(response.headers["content-type"], where).toMatch(/^application\/json/);
  if (response.status !== 200) {
    expect(response.status, where).toBeGreaterThanOrEqual(400);
    expectRegistryError(response.status, response.json);
    return;
  }
  tally.ok += 1;
  const body = sentBody(sent);
  switch (sent.path) {
    case "/v1/verified":
    case "/v1/verified/check":
      expectCitationsSlice(result, body.sources);
      break;
    case "/v1/verified/extract":
      expect(Object.keys(result.fields).sort()).toEqual(Object.keys(body.schema).sort());
      expectFieldsSlice(result, body.sources);
      break;
    case "/v1/verified/eval":
      expect(result.cases).toHaveLength(body.cases.length);
      expect(result.aggregate.n).toBe(body.cases.length);
      break;
  }
}

/**
 * The scripted model quotes the start of the first source in its prompt, and names every requested field
 * with the start of that source: output shaped as the contract says, with adversarial text inside.
 */
function scriptedModel(call: RecordedCall): string {
  const body = call.body as {
    messages: { content: string }[];
    response_format?: {
      json_schema?: { name: string; schema: { properties?: Record<string, { properties?: object }> } };
    };
  };
  const prompt = body.messages[0]?.content ?? "";
  const match = /<source id=("(?:[^"\\]|\\.)*")>\n([\s\S]*?)\n<\/source>/.exec(prompt);
  const sourceId = match?.[1] === undefined ? "none" : (JSON.parse(match[1]) as string);
  const quote = (match?.[2] ?? "").slice(0, 12);
  const format = body.response_format?.json_schema;
  if (format?.name === "verified_claims") {
    return JSON.stringify({ claims: [{ claim: quote, quote, source: sourceId }] });
  }
  if (format?.name === "verified_fields") {
    const names = Object.keys(format.schema.properties?.fields?.properties ?? {});
    return JSON.stringify({
      fields: Object.fromEntries(names.map((name) => [name, { value: quote.slice(0, 6), source: sourceId }])),
    });
  }
  return "A plain answer.";
}

beforeAll(async () => {
  gateway = await startScriptedGateway({ handler: scriptedModel });
  service = await startService({ gatewayURL: gateway.url });
  client = createRawClient(service.url, { maxSockets: 8 });
});

afterAll(async () => {
  await client?.close();
  await service?.close();
  await gateway?.close();
});

describe("bad input at every endpoint", () => {
  it("random and damaged bodies get a registry 4xx or a 200 whose ranges slice to the quotes", {
    timeout: 90_000,
  }, async () => {
    // Eight requests at a time over keep-alive connections, 3,200 in all.
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 8, maxLength: 8 }), async (batch) => {
        await Promise.all(batch.map(sendAndCheck));
      }),
      { numRuns: 400 },
    );
    // The generators reach both outcomes, on every endpoint.
    expect(tally.ok).toBeGreaterThan(300);
    expect(tally.requests - tally.ok).toBeGreaterThan(1_000);
  });

  it("any JSON value at all, or any text, is refused with a registry 4xx", async () => {
    const anything = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.string({ unit, maxLength: 50 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), anything, async (path, body) => {
        await sendAndCheck({
          path,
          headers: { "content-type": "application/json", authorization: "Bearer k" },
          body,
        });
      }),
      { numRuns: 400 },
    );
  });

  const big = (path: Path, body: unknown): RawRequest => ({
    path,
    headers: { "content-type": "application/json", authorization: "Bearer k" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    timeoutMs: 30_000,
  });
  const question = [{ role: "user", content: "How long is river 77?" }];
  const tenThousand = Array.from({ length: 10_000 }, (_, index) => ({
    id: `s${index}`,
    text: `river ${index}`,
  }));
  const deep = (depth: number, open = "[", close = "]") => `${open.repeat(depth)}${close.repeat(depth)}`;

  it.each<{ name: string; request: RawRequest; status: number }>([
    {
      name: "10,000 sources on create",
      request: big("/v1/verified", { model: "local", messages: question, sources: tenThousand }),
      status: 200,
    },
    {
      name: "10,000 sources on extract",
      request: big("/v1/verified/extract", {
        model: "local",
        sources: tenThousand,
        schema: { river: "river" },
      }),
      status: 200,
    },
    {
      name: "10,000 sources on check",
      request: big("/v1/verified/check", {
        sources: tenThousand,
        claims: [{ quote: "river 7777", source: "s7777" }],
      }),
      status: 200,
    },
    {
      name: "10,000 sources in each of 3 eval cases",
      request: big("/v1/verified/eval", {
        model: "local",
        cases: [1, 2, 3].map(() => ({ messages: question, sources: tenThousand })),
      }),
      status: 200,
    },
    {
      name: "10,000 messages",
      request: big("/v1/verified", {
        model: "local",
        messages: Array.from({ length: 10_000 }, () => question[0]),
        sources: tenThousand.slice(0, 100),
      }),
      status: 200,
    },
    {
      name: "a 150,000-character source",
      request: big("/v1/verified", {
        model: "local",
        messages: question,
        sources: [{ id: "a", text: "ab".repeat(75_000) }],
      }),
      status: 400,
    },
    {
      name: "a 3 MB message",
      request: big("/v1/verified", {
        model: "local",
        messages: [{ role: "user", content: "river ".repeat(500_000) }],
        sources: [{ id: "a", text: "river 1" }],
      }),
      status: 200,
    },
    {
      name: "a 5 MB model id",
      request: big("/v1/verified", { model: "m".repeat(5_000_000), messages: question, sources: [] }),
      status: 413,
    },
    {
      name: "a 50,000-field schema",
      request: big("/v1/verified/extract", {
        model: "local",
        sources: [{ id: "a", text: "x" }],
        schema: Object.fromEntries(Array.from({ length: 50_000 }, (_, index) => [`f${index}`, "x"])),
      }),
      status: 400,
    },
    {
      name: "arrays nested 100,000 deep as the model",
      request: big("/v1/verified", `{"model": ${deep(100_000)}, "messages": [], "sources": []}`),
      status: 400,
    },
    {
      name: "objects nested 100,000 deep as an unknown field",
      request: big(
        "/v1/verified/check",
        `{"sources": [], "claims": [], "x": ${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`,
      ),
      status: 400,
    },
    {
      name: "objects nested 50,000 deep hiding a __proto__ key",
      request: big(
        "/v1/verified/eval",
        `{"model": "local", "cases": ${'{"a":'.repeat(50_000)}{"__proto__": {"polluted": "yes"}}${"}".repeat(50_000)}}`,
      ),
      status: 400,
    },
    {
      name: "arrays nested 100,000 deep as a source's text",
      request: big(
        "/v1/verified/extract",
        `{"model": "local", "schema": {"a": "b"}, "sources": [{"id": "a", "text": ${deep(100_000)}}]}`,
      ),
      status: 400,
    },
    {
      // Found by the property above: TypeBox's record key pattern `^(.*)$` misses keys with a line break,
      // and such a key's value went unchecked into the service (a 500).
      name: "an extract field name with a line break and a value that is not a string",
      request: big("/v1/verified/extract", {
        model: "local",
        sources: [{ id: "a", text: "City: Lyon" }],
        schema: { "city\n": false, "a\u2028b": 5, "c\rd": { x: 1 } },
      }),
      status: 400,
    },
    {
      name: "a single JSON number of 1,000,000 digits",
      request: big("/v1/verified/check", `{"sources": [], "claims": [], "mode": ${"9".repeat(1_000_000)}}`),
      status: 400,
    },
    {
      name: "100,000 repeated keys",
      request: big(
        "/v1/verified/check",
        `{${'"mode": "strict", '.repeat(100_000)}"sources": [], "claims": []}`,
      ),
      status: 200,
    },
  ])("$name: $status", async ({ request: sent, status }) => {
    const response = await client.send(sent);
    expect(response.status, response.text.slice(0, 300)).toBe(status);
    await sendAndCheck(sent);
  });

  it("leaves Object.prototype clean, and the service serving", async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    const health = await client.send({ method: "GET", path: "/healthz" });
    expect(health.status).toBe(200);
    await sendAndCheck(
      toRequest(
        "/v1/verified",
        {
          model: "local",
          messages: [{ role: "user", content: "Where was it founded?" }],
          sources: [{ id: "a", text: "It was founded in Lyon." }],
        },
        { kind: "none" },
      ),
    );
    expect(tally.statuses.get(200)).toBeGreaterThan(0);
  });
});
