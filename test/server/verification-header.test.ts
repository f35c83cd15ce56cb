import { describe, expect, it } from "vitest";
import { completion } from "../support/scripted-gateway.js";
import { startWithGateway } from "./harness.js";

// The `x-verification` header of POST /v1/chat/completions (the `verification` object for gateways that drop
// body fields they do not know) is read as UTF-8, as a body is: Node hands a header's bytes over one character
// a byte (Latin-1), so a source sent raw as UTF-8 arrived as mojibake ("cafÃ©") and its claims failed without
// an error. Bytes that are not UTF-8 (Latin-1 text, as Node's and Python's clients send a string header) are a
// 400 naming the offset of the first bad one. Sources and answers written for this test.

const sources = [
  { id: "menu", text: "Le café ouvre à 8 h. Ses gâteaux coûtent 4 €." },
  { id: "東京", text: "東京の支店は二〇一九年に開いた。" },
];
const answer = "Le café ouvre à 8 h [menu]. 東京の支店は二〇一九年に開いた [東京].";

/** A header value carrying `bytes` as they are: Node's HTTP clients send each character below 256 as its byte. */
const rawHeader = (bytes: Buffer): string => bytes.toString("latin1");

async function post(headerValue: string) {
  const { gateway, service } = await startWithGateway();
  gateway.script.replyWith([completion(answer)]);
  const response = await fetch(`${service.url}/v1/chat/completions`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: "Bearer sk-test-key",
      "x-verification": headerValue,
    },
    body: JSON.stringify({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Quand ouvre le café ?" }],
    }),
  });
  return { response, body: (await response.json()) as Record<string, unknown>, calls: gateway.calls.length };
}

describe("x-verification header: UTF-8, as a body", () => {
  it("reads sources sent raw as UTF-8 as the caller wrote them", async () => {
    const { response, body } = await post(rawHeader(Buffer.from(JSON.stringify({ sources }), "utf8")));
    expect(response.status).toBe(200);
    const verification = body.verification as {
      verdict: string;
      citations: { source: string; quote: string }[];
      unsupported: unknown[];
    };
    expect(verification.unsupported).toEqual([]);
    expect(verification.citations.map((citation) => [citation.source, citation.quote])).toEqual([
      ["menu", "Le café ouvre à 8 h."],
      ["東京", "東京の支店は二〇一九年に開いた。"],
    ]);
    expect(verification.verdict).toBe("pass");
  });

  it("reads JSON escapes (ASCII only, what every client sends as it is) the same", async () => {
    const ascii = JSON.stringify({ sources }).replace(
      /[\u007f-\uffff]/gu,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    const { response, body } = await post(ascii);
    expect(response.status).toBe(200);
    expect((body.verification as { verdict: string }).verdict).toBe("pass");
  });

  it.each([
    ["Latin-1 é (what Node's and Python's clients send for a string header)", [0xe9]],
    ["a lone continuation byte", [0x80]],
    ["a character cut off", [0xe2, 0x82]],
  ])("%s is 400 invalid_request naming its offset, before the model is called", async (_, bad) => {
    const head = Buffer.from('{"sources": [{"id": "menu", "text": "caf', "utf8");
    const tail = Buffer.from(' au lait."}]}', "utf8");
    const { response, body, calls } = await post(rawHeader(Buffer.concat([head, Buffer.from(bad), tail])));
    expect(response.status).toBe(400);
    expect(body.error).toMatchObject({ type: "invalid_request", param: "x-verification" });
    const message = (body.error as { message: string }).message;
    expect(message).toContain(`offset ${head.length}`);
    expect(message).toContain(`0x${(bad[0] as number).toString(16)}`);
    expect(calls).toBe(0);
  });
});
