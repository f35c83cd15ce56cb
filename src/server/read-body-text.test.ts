import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readBodyText } from "./read-body-text.js";

/** A payload stream that sends `chunks` one by one, then ends (or fails with `error`). */
function payloadOf(chunks: readonly Buffer[], error?: Error): PassThrough {
  const payload = new PassThrough();
  setImmediate(() => {
    for (const chunk of chunks) payload.write(chunk);
    if (error) payload.destroy(error);
    else payload.end();
  });
  return payload;
}

const bytesOf = (text: string) => Buffer.from(text, "utf8");

describe("readBodyText", () => {
  it("decodes characters whose bytes are split across chunks", async () => {
    const body = bytesOf('{"q":"café 😀 中"}');
    // Cut inside é (2 bytes), inside the emoji (4 bytes) and inside 中 (3 bytes).
    const cuts = [9, 14, 16, 19, body.length];
    const chunks = cuts.map((end, at) => body.subarray(at === 0 ? 0 : cuts[at - 1], end));
    // Pieces of 1 byte: each chunk is decoded as it comes, the decoder holding a split character's bytes.
    const text = await readBodyText(payloadOf(chunks), String(body.length), 1024, 1);
    expect(text).toBe('{"q":"café 😀 中"}');
  });

  it("decodes the chunks in pieces of at least pieceBytes, the rest at the end", async () => {
    const body = bytesOf(`{"q":"${"é".repeat(1_500)}"}`);
    // Chunks of 300 bytes: a piece is decoded once 1,000 bytes or more are waiting.
    const chunks: Buffer[] = [];
    for (let start = 0; start < body.length; start += 300) chunks.push(body.subarray(start, start + 300));
    const pieces: number[] = [];
    const text = await readBodyText(payloadOf(chunks), String(body.length), 10_000, 1_000, (bytes) =>
      pieces.push(bytes),
    );
    expect(text).toBe(body.toString("utf8"));
    expect(pieces).toEqual([1_200, 1_200, body.length - 2_400]);
  });

  it("refuses a declared length over the limit before reading", async () => {
    await expect(readBodyText(payloadOf([bytesOf("{}")]), "2048", 1024)).rejects.toMatchObject({
      code: "FST_ERR_CTP_BODY_TOO_LARGE",
    });
  });

  it("refuses a body over the limit as it arrives, with no length declared", async () => {
    const chunks = [bytesOf("x".repeat(600)), bytesOf("x".repeat(600))];
    await expect(readBodyText(payloadOf(chunks), undefined, 1024)).rejects.toMatchObject({
      code: "FST_ERR_CTP_BODY_TOO_LARGE",
    });
  });

  it("refuses a body shorter than its Content-Length", async () => {
    await expect(readBodyText(payloadOf([bytesOf("{}")]), "3", 1024)).rejects.toMatchObject({
      code: "FST_ERR_CTP_INVALID_CONTENT_LENGTH",
    });
  });

  it("ends with the stream's error, as a 400 when it carries no status", async () => {
    const failure = new Error("socket hang up");
    await expect(readBodyText(payloadOf([bytesOf("{")], failure), undefined, 1024)).rejects.toMatchObject({
      message: "socket hang up",
      statusCode: 400,
    });
  });

  it("reads an empty body as the empty string", async () => {
    await expect(readBodyText(payloadOf([]), "0", 1024)).resolves.toBe("");
  });
});
