import { describe, expect, it } from "vitest";
import { API_PATHS, DROP_IN_PATHS, OPERATION_PATHS } from "../../src/api-paths.js";
import { completion } from "../support/scripted-gateway.js";
import { claimsContent, startWithGateway } from "./harness.js";

// UTF-8 at the door (issue 34 item 8), on every path that takes a body: a body that is not UTF-8 is refused
// with 400 invalid_request naming the offset of its first bad byte, before anything decodes it (decoded, each
// bad byte would become a U+FFFD of three bytes and shift every `offsets: "utf8"` range after it). Streamed
// requests (`"stream": true`) go through the same door.

/** Every POST path: the operations and the drop-in paths. */
const postPaths = [...Object.values(OPERATION_PATHS), ...Object.values(DROP_IN_PATHS)];

// Byte sequences that are not UTF-8, each between two halves of a valid JSON body.
const badBytes: [string, number[]][] = [
  ["Latin-1 é", [0xe9]],
  ["a lone continuation byte", [0x80]],
  ["an overlong form of '/'", [0xc0, 0xaf]],
  ["an encoded surrogate", [0xed, 0xa0, 0x80]],
  ["a character cut off before a quote", [0xe2, 0x82]],
  ["past U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
];

/** A body valid for `path` but for the bad bytes inside a source's text, and whether to stream. */
function bodyWith(path: string, bytes: number[], stream: boolean): { body: Buffer; offset: number } {
  const sources = '"sources": [{"id": "a", "text": "caf';
  const after = ' au lait."}]';
  const messages = '"messages": [{"role": "user", "content": "Coffee?"}]';
  const streamed = stream ? ', "stream": true' : "";
  const head =
    path === OPERATION_PATHS.check
      ? `{${sources}`
      : path === OPERATION_PATHS.eval
        ? `{"model": "gpt-test"${streamed}, "cases": [{${messages}, ${sources}`
        : path === DROP_IN_PATHS.chatCompletions
          ? `{"model": "gpt-test"${streamed}, ${messages}, "verification": {${sources}`
          : path === DROP_IN_PATHS.portkeyGuardrail || path === DROP_IN_PATHS.litellmGuardrail
            ? `{"request": {${messages}}, "texts": ["Coffee [a]."], "verification": {${sources}`
            : path === OPERATION_PATHS.extract
              ? `{"model": "gpt-test", ${sources}`
              : `{"model": "gpt-test"${streamed}, ${messages}, ${sources}`;
  const tail =
    path === OPERATION_PATHS.check
      ? `${after}, "answer": "Coffee [a]."}`
      : path === OPERATION_PATHS.eval
        ? `${after}}]}`
        : path === DROP_IN_PATHS.chatCompletions ||
            path === DROP_IN_PATHS.portkeyGuardrail ||
            path === DROP_IN_PATHS.litellmGuardrail
          ? `${after}}}`
          : path === OPERATION_PATHS.extract
            ? `${after}, "schema": {"drink": "the drink"}}`
            : `${after}}`;
  const headBytes = Buffer.from(head);
  return {
    body: Buffer.concat([headBytes, Buffer.from(bytes), Buffer.from(tail)]),
    offset: headBytes.length,
  };
}

describe("UTF-8 at the door, on every path that takes a body", () => {
  it("covers every POST path of the API", () => {
    // A new POST path must be added to postPaths (the test fails until it is).
    const others = Object.values(API_PATHS).filter((path) => !postPaths.includes(path as never));
    expect(others.sort()).toEqual(["/healthz", "/metrics", "/openapi.json", "/readyz", "/v1/models"]);
  });

  it.each(postPaths.flatMap((path) => badBytes.map(([name, bytes]) => [path, name, bytes] as const)))(
    "%s: %s is 400 invalid_request naming its offset (streamed too, where the path streams)",
    async (path, _name, bytes) => {
      const { service } = await startWithGateway();
      for (const stream of [false, true]) {
        const { body, offset } = bodyWith(path, bytes, stream);
        const response = await fetch(`${service.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json; charset=utf-8", authorization: "Bearer test-key" },
          body: new Uint8Array(body),
        });
        expect(response.status).toBe(400);
        const { error } = await response.json();
        expect(error.type).toBe("invalid_request");
        expect(error.message).toBe(
          `The body is not valid UTF-8: the byte at offset ${offset} (0x${(bytes[0] as number).toString(16)}) does not belong to a UTF-8 character. Send the body as UTF-8.`,
        );
      }
    },
  );

  it("the same bodies in UTF-8 are accepted on every path (the refusal is the bytes', not the shape's)", async () => {
    const { gateway, service } = await startWithGateway();
    const replies: Record<string, string> = {
      [OPERATION_PATHS.create]: claimsContent({
        claim: "Café au lait.",
        quote: "café au lait.",
        source: "a",
      }),
      [OPERATION_PATHS.eval]: claimsContent({ claim: "Café au lait.", quote: "café au lait.", source: "a" }),
      [OPERATION_PATHS.extract]: JSON.stringify({
        fields: { drink: { value: "café au lait", source: "a" } },
      }),
      [DROP_IN_PATHS.chatCompletions]: "Café au lait [a].",
    };
    let reply = "";
    gateway.script(() => completion(reply));
    for (const path of postPaths) {
      reply = replies[path] ?? "";
      const { body } = bodyWith(path, [...Buffer.from("é")], false);
      const response = await fetch(`${service.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer test-key" },
        body: new Uint8Array(body),
      });
      expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
    }
  });
});
