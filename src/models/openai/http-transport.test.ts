import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createHttpTransport } from "./http-transport.js";

// The answer, in pieces of 10,000 bytes: with a Content-Length (`/sized`) or chunked (`/chunked`).
const answer = Buffer.from(JSON.stringify({ content: "é".repeat(40_000) }), "utf8");
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/sized") response.setHeader("content-length", answer.length);
    for (let start = 0; start < answer.length; start += 10_000)
      response.write(answer.subarray(start, start + 10_000));
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function readAnswer(path: string): Promise<unknown> {
  const send = createHttpTransport(`${url}${path}`);
  const response = await send({ headers: {}, body: "{}", signal: new AbortController().signal });
  return response.readBody(1_000_000);
}

describe("createHttpTransport's readBody", () => {
  it("copies an answer with a Content-Length into place as it arrives, and joins only a chunked one", async () => {
    const concat = vi.spyOn(Buffer, "concat");
    try {
      expect(await readAnswer("/sized")).toEqual({ ok: true, bytes: answer });
      expect(concat).not.toHaveBeenCalled();
      expect(await readAnswer("/chunked")).toEqual({ ok: true, bytes: answer });
      expect(concat).toHaveBeenCalledTimes(1);
    } finally {
      concat.mockRestore();
    }
  });

  it("refuses an answer whose Content-Length is over the limit", async () => {
    const send = createHttpTransport(`${url}/sized`);
    const response = await send({ headers: {}, body: "{}", signal: new AbortController().signal });
    expect(await response.readBody(50_000)).toMatchObject({ ok: false });
  });
});
