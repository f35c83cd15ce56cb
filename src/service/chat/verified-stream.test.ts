import { describe, expect, it } from "vitest";
import { MAX_ANSWER_CHARS, MAX_GATEWAY_RESPONSE_BYTES } from "../../limits.js";
import { verifiedChatStream } from "./verified-stream.js";

const encoder = new TextEncoder();
const found = {
  from: "verification" as const,
  sources: [{ id: "report", text: "Northwind was founded in 2016 in Lyon." }],
};

async function* events(texts: readonly string[]): AsyncGenerator<Uint8Array> {
  const chunk = (choices: unknown[]) =>
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 7, model: "m", choices })}\n\n`;
  for (const text of texts)
    yield encoder.encode(chunk([{ index: 0, delta: { content: text }, finish_reason: null }]));
  yield encoder.encode(`${chunk([{ index: 0, delta: {}, finish_reason: "stop" }])}data: [DONE]\n\n`);
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of stream) out.push(piece);
  return out;
}

describe("verifiedChatStream", () => {
  it("relays each event as written, then the report chunk with the stream's id, created and model, then [DONE]", async () => {
    const out = await collect(
      verifiedChatStream(events(["Northwind was founded ", "in 2016 in Lyon [report]."]), {
        found,
        verification: {},
        messages: [],
      }),
    );
    expect(out).toHaveLength(5);
    expect(out.at(-1)).toBe("data: [DONE]\n\n");
    const report = JSON.parse((out.at(-2) as string).slice("data: ".length));
    expect(report).toMatchObject({
      id: "c1",
      created: 7,
      model: "m",
      choices: [],
      verification: { verdict: "pass" },
    });
  });

  it("ends an answer longer than check's limit with a gateway_error event, not a report", async () => {
    const piece = "a".repeat(64 * 1024);
    const texts = Array.from({ length: Math.ceil(MAX_ANSWER_CHARS / piece.length) + 1 }, () => piece);
    for (const hold of [false, true]) {
      const out = await collect(
        verifiedChatStream(events(texts), { found, verification: { hold }, messages: [] }),
      );
      const last = JSON.parse((out.at(-1) as string).slice("data: ".length));
      expect(last.error).toMatchObject({ type: "gateway_error" });
      expect(out.join("")).not.toContain('"verification"');
    }
  });

  it("checks closed sentences while relaying: after the content ends, the report waits only for the last sentence", async () => {
    // Turns of the event loop between the gateway's last event and the report chunk, counted by a ticker.
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      ticks += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const turns = async (count: number) => {
      for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
    };
    const gapAfter = async (sentences: number) => {
      const sentence = "Northwind was founded in 2016 in Lyon [report]. ";
      let endedAt = 0;
      async function* paced(): AsyncGenerator<Uint8Array> {
        for (let index = 0; index < sentences; index++) {
          for await (const bytes of events([sentence])) {
            // Only the content event of each small stream; its end comes once, at the answer's end.
            if (new TextDecoder().decode(bytes).includes("[DONE]")) break;
            yield bytes;
          }
          await turns(4);
        }
        await turns(50);
        endedAt = ticks;
        yield encoder.encode("data: [DONE]\n\n");
      }
      let reportAt = 0;
      for await (const piece of verifiedChatStream(paced(), { found, verification: {}, messages: [] })) {
        if (piece.includes('"verification"')) reportAt = ticks;
      }
      return reportAt - endedAt;
    };
    try {
      const short = await gapAfter(2);
      const long = await gapAfter(2000);
      // One sentence left to check either way: the 100 KB answer's report comes as soon as the short one's.
      expect(long).toBeLessThanOrEqual(short + 1);
    } finally {
      ticking = false;
    }
  });

  it("ends a stream the gateway breaks off with a gateway_error event, not a thrown error or a report", async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      for await (const bytes of events(["Northwind was founded ", "in 2016."])) {
        yield bytes;
        throw new Error("socket hang up");
      }
    }
    for (const hold of [false, true]) {
      const out = await collect(
        verifiedChatStream(broken(), { found, verification: { hold }, messages: [] }),
      );
      const last = JSON.parse((out.at(-1) as string).slice("data: ".length));
      expect(last).toEqual({
        error: {
          type: "gateway_error",
          code: "gateway_error",
          message: "The model gateway broke off its stream.",
        },
      });
      expect(out.join("")).not.toContain('"verification"');
    }
  });

  it("caps the gateway's stream in bytes: events held after the answer's end do not pile up", async () => {
    // Past the finish, chunks without choices (held until the answer is checked) run over the byte cap.
    const junk = `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [], x: "a".repeat(1000 * 1000) })}\n\n`;
    async function* flood(): AsyncGenerator<Uint8Array> {
      yield* events(["Northwind was founded in 2016 in Lyon [report]."]);
      for (let index = 0; index * 1000 * 1000 <= MAX_GATEWAY_RESPONSE_BYTES; index++)
        yield encoder.encode(junk);
    }
    const withoutDone = async function* (): AsyncGenerator<Uint8Array> {
      for await (const bytes of flood()) {
        const text = new TextDecoder().decode(bytes);
        yield encoder.encode(text.replace("data: [DONE]\n\n", ""));
      }
    };
    const out = await collect(
      verifiedChatStream(withoutDone(), { found, verification: { hold: true }, messages: [] }),
    );
    const last = JSON.parse((out.at(-1) as string).slice("data: ".length));
    expect(last.error).toMatchObject({ type: "gateway_error" });
    expect(last.error.message).toContain("larger than 8 MiB");
    expect(out.join("").length).toBeLessThan(MAX_GATEWAY_RESPONSE_BYTES);
  });

  it("ends a stream that stops before the answer's end (no finish_reason, no [DONE]) with a gateway_error event", async () => {
    async function* cut(): AsyncGenerator<Uint8Array> {
      yield encoder.encode(
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 7, model: "m", choices: [{ index: 0, delta: { content: "Northwind was founded in 2016 in Lyon [report]." }, finish_reason: null }] })}\n\n`,
      );
    }
    const out = await collect(verifiedChatStream(cut(), { found, verification: {}, messages: [] }));
    const last = JSON.parse((out.at(-1) as string).slice("data: ".length));
    expect(last.error).toMatchObject({ type: "gateway_error" });
    expect(out.join("")).not.toContain('"verification"');
  });

  it("ends a stream that is not UTF-8 with a gateway_error event, relaying nothing read as U+FFFD", async () => {
    async function* bad(): AsyncGenerator<Uint8Array> {
      const [first, last] = await collectBytes(events(["Northwind was founded in 2016 in Lyon [report]."]));
      yield first as Uint8Array;
      // A lone 0xc3 (the first byte of a two-byte character) before an ASCII quote.
      yield Buffer.concat([
        encoder.encode('data: {"choices":[{"index":0,"delta":{"content":"Caf'),
        Buffer.from([0xc3]),
        encoder.encode('"}}]}\n\n'),
      ]);
      yield last as Uint8Array;
    }
    const out = await collect(verifiedChatStream(bad(), { found, verification: {}, messages: [] }));
    const last = JSON.parse((out.at(-1) as string).slice("data: ".length));
    expect(last.error).toMatchObject({ type: "gateway_error" });
    expect(last.error.message).toContain("not valid UTF-8");
    expect(out.join("")).not.toContain("\ufffd");
  });

  it("relays the events of one gateway chunk in one write", async () => {
    async function* twoChunks(): AsyncGenerator<Uint8Array> {
      const all = await collectBytes(events(["Northwind was founded ", "in 2016 in Lyon [report]."]));
      yield Buffer.concat(all.slice(0, 2));
      yield all[2] as Uint8Array;
    }
    const out = await collect(verifiedChatStream(twoChunks(), { found, verification: {}, messages: [] }));
    // Both content events in the first write; then the finish, the report and [DONE].
    expect(out[0]?.match(/^data: /gm)).toHaveLength(2);
    expect(out).toHaveLength(4);
  });
});

async function collectBytes(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const piece of stream) out.push(piece);
  return out;
}
