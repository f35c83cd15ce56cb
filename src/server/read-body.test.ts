import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { isBlankBody, readBody } from "./read-body.js";

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

describe("readBody", () => {
  it("gives the body's bytes as they came, characters split across chunks included", async () => {
    const body = bytesOf('{"q":"café 😀 中"}');
    // Cut inside é (2 bytes), inside the emoji (4 bytes) and inside 中 (3 bytes).
    const cuts = [9, 14, 16, 19, body.length];
    const chunks = cuts.map((end, at) => body.subarray(at === 0 ? 0 : cuts[at - 1], end));
    const bytes = await readBody(payloadOf(chunks), String(body.length), 1024);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes.equals(body)).toBe(true);
  });

  it("copies a body with a Content-Length into place as it arrives, and joins only one without", async () => {
    const body = bytesOf(`{"q":"${"é".repeat(1_500)}"}`);
    const chunks: Buffer[] = [];
    for (let start = 0; start < body.length; start += 300) chunks.push(body.subarray(start, start + 300));
    const concat = vi.spyOn(Buffer, "concat");
    try {
      expect((await readBody(payloadOf(chunks), String(body.length), 10_000)).equals(body)).toBe(true);
      expect(concat).not.toHaveBeenCalled();
      expect((await readBody(payloadOf(chunks), undefined, 10_000)).equals(body)).toBe(true);
      expect(concat).toHaveBeenCalledTimes(1);
    } finally {
      concat.mockRestore();
    }
  });

  it("refuses a body longer than its Content-Length, copying nothing past it", async () => {
    await expect(readBody(payloadOf([bytesOf("{}"), bytesOf("[]")]), "3", 1024)).rejects.toMatchObject({
      code: "FST_ERR_CTP_INVALID_CONTENT_LENGTH",
    });
  });

  it("refuses a declared length over the limit before reading", async () => {
    await expect(readBody(payloadOf([bytesOf("{}")]), "2048", 1024)).rejects.toMatchObject({
      code: "FST_ERR_CTP_BODY_TOO_LARGE",
    });
  });

  it("refuses a body over the limit as it arrives, with no length declared", async () => {
    const chunks = [bytesOf("x".repeat(600)), bytesOf("x".repeat(600))];
    await expect(readBody(payloadOf(chunks), undefined, 1024)).rejects.toMatchObject({
      code: "FST_ERR_CTP_BODY_TOO_LARGE",
    });
  });

  it("refuses a body shorter than its Content-Length", async () => {
    await expect(readBody(payloadOf([bytesOf("{}")]), "3", 1024)).rejects.toMatchObject({
      code: "FST_ERR_CTP_INVALID_CONTENT_LENGTH",
    });
  });

  it("ends with the stream's error, as a 400 when it carries no status", async () => {
    const failure = new Error("socket hang up");
    await expect(readBody(payloadOf([bytesOf("{")], failure), undefined, 1024)).rejects.toMatchObject({
      message: "socket hang up",
      statusCode: 400,
    });
  });

  it("reads an empty body as no bytes", async () => {
    expect((await readBody(payloadOf([]), "0", 1024)).length).toBe(0);
  });
});

describe("isBlankBody", () => {
  it.each([
    ["", true],
    [" \n\t\r", true],
    // String.prototype.trim's whitespace beyond ASCII: no-break space, BOM, ideographic space.
    ["\u00a0\ufeff\u3000 ", true],
    ["{}", false],
    [" \u00a0 x", false],
    ["\u00e9", false],
  ])("reads %j as blank: %s", (text, blank) => {
    expect(isBlankBody(bytesOf(text))).toBe(blank);
  });
});
