import { JSONParser } from "@streamparser/json";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Source } from "../core/types.js";
import { CLAIM_READ_SLICE_CHARS } from "../limits.js";
import type { GenerateRequest, ModelBackend } from "../models/types.js";
import { type CreateProgress, EVENTS_PER_TURN } from "./claim-events.js";
import { type CreateInput, createVerified } from "./create.js";

// Streaming create against the non-streaming path, in process: a model whose reply arrives cut anywhere
// gives the same result, and its claim events are exactly the result's claims in the model's order.

const sources: Source[] = [
  {
    id: "report",
    text: "Northwind was founded in 2016 in Lyon. Revenue for 2024 was $18.4 million, up 22%. Café ✓ 日本.",
  },
  { id: "table", text: "| Quarter | Revenue |\n| --- | --- |\n| Q3 | 1,250 |\n" },
];
const quotes = [
  "Northwind was founded in 2016 in Lyon.",
  "$18.4 million",
  "Café ✓ 日本",
  "| Q3 | 1,250 |",
  "1,250",
];

/** A gateway that replies `contents` in turn, handing each to a stream in the pieces `cut` makes. */
function cutGateway(contents: string[], cut: (content: string) => string[]): ModelBackend {
  let call = 0;
  return {
    async generate(request: GenerateRequest) {
      const content = contents[Math.min(call, contents.length - 1)] ?? "";
      call += 1;
      request.stream?.onOpen();
      for (const piece of cut(content)) request.stream?.onText(piece);
      return { content, usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 } };
    },
  };
}

const input = (extra: Partial<CreateInput> = {}): CreateInput => ({
  model: "m",
  messages: [{ role: "user", content: "q" }],
  sources,
  ...extra,
});

async function settle<T>(
  promise: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Runs `run`, tallying what it adds (`add`) by pass of the event loop (a `setImmediate` tick marks each
 * pass): the tallies of the passes that added anything.
 */
async function tallyPerPass(run: (add: (amount: number) => void) => Promise<unknown>): Promise<number[]> {
  let pass = 0;
  let ticking = true;
  const tick = () => {
    pass += 1;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const perPass = new Map<number, number>();
  try {
    await run((amount) => perPass.set(pass, (perPass.get(pass) ?? 0) + amount));
  } finally {
    ticking = false;
  }
  return [...perPass.values()];
}

/** Runs create without and with streaming on the same replies; returns both outcomes and the events. */
async function both(
  contents: string[],
  cut: (content: string) => string[],
  extra: Partial<CreateInput> = {},
) {
  const context = (gateway: ModelBackend) => ({ gateway, apiKey: undefined, sourcesBudget: 100_000 });
  const plain = await settle(createVerified(input(extra), context(cutGateway(contents, (text) => [text]))));
  const events: CreateProgress[] = [];
  let opened = 0;
  const streamed = await settle(
    createVerified(input(extra), context(cutGateway(contents, cut)), {
      failWhenUngrounded: true,
      observer: { open: () => (opened += 1), progress: (event) => events.push(event) },
    }),
  );
  return { plain, streamed, events, opened };
}

const claimArbitrary = fc.record({
  claim: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
  quote: fc.oneof(fc.constantFrom(...quotes), fc.string({ maxLength: 8 })),
  source: fc.constantFrom("report", "table", "brochure"),
});

const layouts: ((claims: unknown[]) => string)[] = [
  (claims) => JSON.stringify({ claims }),
  (claims) => JSON.stringify({ claims }, null, 2),
  (claims) => `Here are the claims:\n\`\`\`json\n${JSON.stringify({ claims })}\n\`\`\``,
];

describe("streamed create against the non-streaming path", () => {
  it("cut at every position: the same result, and one event per claim in order", async () => {
    const claims = [
      { claim: "Founded in Lyon.", quote: quotes[0], source: "report" },
      { claim: "Profit doubled.", quote: "profit doubled", source: "report" },
      { claim: "Q3 revenue was 1,250.", quote: "1,250", source: "table" },
      { quote: "Café ✓ 日本", source: "report" },
    ];
    const content = JSON.stringify({ claims });
    for (let at = 0; at <= content.length; at += 1) {
      const run = await both([content], (text) => [text.slice(0, at), text.slice(at)]);
      expect(run.streamed).toEqual(run.plain);
      expect(run.events.map((event) => event.type)).toEqual(["claim", "unsupported", "claim", "claim"]);
    }
  });

  it("for any claims, layout and cuts: the same result or the same error, and events matching it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(claimArbitrary, { maxLength: 5 }),
        fc.nat(layouts.length - 1),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.constantFrom(undefined, "source" as const, "row" as const),
        async (claims, layout, cuts, checkNumbers) => {
          const content = (layouts[layout] as (claims: unknown[]) => string)(claims);
          const points = [...new Set(cuts.map((cut) => cut % (content.length + 1)))].sort((a, b) => a - b);
          const cutContent = (text: string) =>
            [0, ...points].map((from, index) => text.slice(from, points[index] ?? text.length));
          const run = await both([content], cutContent, { checkNumbers });

          expect(run.streamed).toEqual(run.plain);
          expect(run.opened).toBeGreaterThan(0);
          const citations = run.events.flatMap((event) => (event.type === "claim" ? [event.citation] : []));
          const unsupported = run.events.flatMap((event) =>
            event.type === "unsupported" ? [event.unsupported] : [],
          );
          expect(run.events).toHaveLength(claims.length);
          if (run.plain.ok) {
            expect(citations).toEqual(run.plain.value.citations);
            expect(unsupported).toEqual(run.plain.value.unsupported);
          } else {
            expect(citations).toEqual([]);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a reply that must be re-asked: its claims, an attempt event, then the used reply's claims", async () => {
    const good = JSON.stringify({ claims: [{ quote: quotes[1], source: "report" }] });
    const bad =
      '{"claims": [{"quote": "Northwind was founded in 2016 in Lyon.", "source": "report"}, {"quote": 3}]}';

    const run = await both([bad, good], (text) => [...text]);

    expect(run.streamed).toEqual(run.plain);
    expect(run.events.map((event) => event.type)).toEqual(["claim", "attempt", "claim"]);
    expect(run.events[1]).toEqual({ type: "attempt", attempt: 2 });
  });

  it("a gateway that does not stream: the claims are reported once its whole reply is in", async () => {
    const content = JSON.stringify({
      claims: [
        { quote: quotes[0], source: "report" },
        { quote: "x", source: "report" },
      ],
    });

    const run = await both([content], () => []);

    expect(run.streamed).toEqual(run.plain);
    expect(run.events.map((event) => event.type)).toEqual(["claim", "unsupported"]);
  });
});

describe("streamed create's claim events and a slow reader", () => {
  // A caller that takes each event a turn after it was sent: always backed up once an event is out.
  function slowObserver() {
    const events: CreateProgress[] = [];
    let waiting = false;
    let sentWhileWaiting = 0;
    let waits = 0;
    const observer = {
      open: () => {},
      progress: (event: CreateProgress) => {
        if (waiting) sentWhileWaiting += 1;
        events.push(event);
      },
      drained: () => {
        waits += 1;
        waiting = true;
        return new Promise<void>((resolve) =>
          setImmediate(() => {
            waiting = false;
            resolve();
          }),
        );
      },
    };
    return { observer, events, counts: () => ({ waits, sentWhileWaiting }) };
  }

  const manyClaims = (count: number) =>
    JSON.stringify({
      claims: Array.from({ length: count }, (_, index) =>
        index % 3 === 2
          ? { quote: `absent ${index}`, source: "report" }
          : { quote: quotes[0], source: "report" },
      ),
    });

  it.each([
    ["streamed a character at a time", (text: string) => [...text]],
    ["streamed in one piece", (text: string) => [text]],
    ["not streamed (all at settle)", () => []],
  ])("%s: no event is sent while the caller has not taken the one before", async (_, cut) => {
    const bad =
      '{"claims": [{"quote": "Northwind was founded in 2016 in Lyon.", "source": "report"}, {"quote": 3}]}';
    const { observer, events, counts } = slowObserver();
    const context = {
      gateway: cutGateway([bad, manyClaims(300)], cut),
      apiKey: undefined,
      sourcesBudget: 100_000,
    };
    const result = await createVerified(input(), context, { failWhenUngrounded: true, observer });
    expect(result.citations).toHaveLength(200);
    // Every claim event waited for the caller, the unusable first reply's one claim included (a gateway that
    // does not stream reports none of that reply); the attempt event is one of its own.
    const claimEvents = events.filter((event) => event.type !== "attempt");
    expect(claimEvents).toHaveLength(cut("x").length === 0 ? 300 : 301);
    // Before, claim events were sent at once, whatever the caller had taken: no wait at all.
    expect(counts().waits).toBe(claimEvents.length);
    expect(counts().sentWhileWaiting).toBe(0);
  });
});

describe("streamed create's claim events: a turn of the event loop between groups of events", () => {
  it.each([
    ["streamed in one piece", (text: string) => [text]],
    ["not streamed (all at settle)", () => []],
  ])("%s: at most EVENTS_PER_TURN events in one pass of the event loop", async (_, cut) => {
    // 3,000 claims against a short source: a slice of the check holds all of them, and each event costs its
    // wire shape, offsets, JSON and a write.
    const content = JSON.stringify({
      claims: Array.from({ length: 3_000 }, () => ({ quote: quotes[0], source: "report" })),
    });
    const context = { gateway: cutGateway([content], cut), apiKey: undefined, sourcesBudget: 100_000 };
    const perPass = await tallyPerPass((add) =>
      createVerified(input(), context, {
        failWhenUngrounded: true,
        observer: { open: () => {}, progress: () => add(1) },
      }),
    );
    expect(perPass.reduce((sum, count) => sum + count, 0)).toBe(3_000);
    // Before, every event of a slice (here all 3,000) went out in one pass.
    expect(Math.max(...perPass)).toBeLessThanOrEqual(EVENTS_PER_TURN);
  });
});

describe("streamed create's claim events: sent together between waits", () => {
  it.each([
    ["streamed in one piece", (text: string) => [text]],
    ["not streamed (all at settle)", () => []],
  ])(
    "%s: no microtask runs between two events unless one waits (an HTTP stream writes them together)",
    async (_, cut) => {
      const content = JSON.stringify({
        claims: Array.from({ length: 3_000 }, () => ({ quote: quotes[0], source: "report" })),
      });
      // As the event stream does: a write of what was gathered, queued as a microtask by the first event after one.
      let queued = false;
      let writes = 0;
      let events = 0;
      const observer = {
        open: () => {},
        progress: () => {
          events += 1;
          if (queued) return;
          queued = true;
          queueMicrotask(() => {
            queued = false;
            writes += 1;
          });
        },
        drained: () => undefined,
      };
      const context = { gateway: cutGateway([content], cut), apiKey: undefined, sourcesBudget: 100_000 };
      await createVerified(input(), context, { failWhenUngrounded: true, observer });
      expect(events).toBe(3_000);
      // A write per group of EVENTS_PER_TURN (and per slice of the check); an await per event made a write per event.
      expect(writes).toBeLessThanOrEqual(2 * Math.ceil(3_000 / EVENTS_PER_TURN));
    },
  );
});

describe("a claims reply handed over in one large piece: read a slice a pass of the event loop", () => {
  /**
   * The characters the claims reader gives its parser in each pass of the event loop (a `setImmediate` tick
   * marks each pass) while `run` runs: the reader's work between two turns, the total and the busiest pass.
   */
  async function readPerPass(run: () => Promise<unknown>): Promise<{ total: number; busiest: number }> {
    const write = JSONParser.prototype.write;
    const counts = await tallyPerPass(async (add) => {
      JSONParser.prototype.write = function (this: JSONParser, text: Parameters<JSONParser["write"]>[0]) {
        if (typeof text === "string") add(text.length);
        return write.call(this, text);
      };
      try {
        await run();
      } finally {
        JSONParser.prototype.write = write;
      }
    });
    return { total: counts.reduce((sum, count) => sum + count, 0), busiest: Math.max(0, ...counts) };
  }

  /** A reply of `count` claims of about 2,000 characters each (every third unsupported). */
  const longClaims = (count: number) =>
    JSON.stringify({
      claims: Array.from({ length: count }, (_, index) => ({
        claim: `Claim ${index}: ${"founded in Lyon ".repeat(125)}`,
        quote: index % 3 === 2 ? `absent ${index}` : quotes[0],
        source: "report",
      })),
    });

  it.each([
    ["one piece", (text: string) => [text]],
    ["two pieces", (text: string) => [text.slice(0, 1_000), text.slice(1_000)]],
  ])(
    "a streamed reply of a MiB in %s: the same result, at most CLAIM_READ_SLICE_CHARS read a pass",
    async (_, cut) => {
      const content = longClaims(600);
      expect(content.length).toBeGreaterThan(16 * CLAIM_READ_SLICE_CHARS);
      let run: Awaited<ReturnType<typeof both>> | undefined;
      const read = await readPerPass(async () => {
        run = await both([content], cut);
      });
      expect(run?.streamed).toEqual(run?.plain);
      expect(run?.events).toHaveLength(600);
      // Every character was read (from the first brace, which is the first character)...
      expect(read.total).toBe(content.length);
      // ...a slice a pass. Before, the piece was read in the pass it arrived in: all of it at once.
      expect(read.busiest).toBeLessThanOrEqual(CLAIM_READ_SLICE_CHARS);
    },
  );

  it("a local model's reply, handed over a claim a piece in one pass: at most CLAIM_READ_SLICE_CHARS read a pass", async () => {
    const content = longClaims(600);
    // As the local model streams: `{"claims":[`, each claim and `,`, then `]}`, all in one loop.
    const pieces = (text: string) => {
      const claims = (JSON.parse(text) as { claims: unknown[] }).claims.map((claim) => JSON.stringify(claim));
      return [
        '{"claims":[',
        ...claims.flatMap((claim, index) => (index === 0 ? [claim] : [",", claim])),
        "]}",
      ];
    };
    expect(pieces(content).join("")).toBe(content);
    let run: Awaited<ReturnType<typeof both>> | undefined;
    const read = await readPerPass(async () => {
      run = await both([content], pieces);
    });
    expect(run?.streamed).toEqual(run?.plain);
    expect(read.total).toBe(content.length);
    expect(read.busiest).toBeLessThanOrEqual(CLAIM_READ_SLICE_CHARS);
  });

  it("a reply read again whole (a repeated claims key): at most CLAIM_READ_SLICE_CHARS read a pass", async () => {
    // JSON.parse keeps the last "claims" array, a stream reads the first: the whole reply is read again as a
    // stream reads it, to compare them (here they agree, so the reply is used).
    const claims = longClaims(600).slice('{"claims":'.length, -1);
    const content = `{"claims":${claims},"claims":${claims}}`;
    let outcome: Awaited<ReturnType<typeof settle>> | undefined;
    const read = await readPerPass(async () => {
      outcome = await settle(
        createVerified(input(), {
          gateway: cutGateway([content], () => []),
          apiKey: undefined,
          sourcesBudget: 100_000,
        }),
      );
    });
    expect(outcome?.ok).toBe(true);
    // The first array and the key that repeats, read to compare them.
    expect(read.total).toBeGreaterThan(claims.length);
    // Before, the whole reply was read again in one pass.
    expect(read.busiest).toBeLessThanOrEqual(CLAIM_READ_SLICE_CHARS);
  });
});
