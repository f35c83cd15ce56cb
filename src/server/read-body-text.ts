import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { errorCodes } from "fastify";

/**
 * Bytes decoded at once (or the whole body, if less): a decoded piece this large is a string V8 keeps in
 * its large-object space, which a young-generation GC never copies; pieces of a socket's 64 KiB would be
 * copied by every scavenge while the body arrives (20 MB of them for a large eval).
 */
export const BODY_DECODE_PIECE_BYTES = 1024 * 1024;

/**
 * Reads a request body as text, decoding each chunk as it arrives, so a 20 MB body costs the event loop
 * no single long decode at the end (Fastify's own reader joins the raw chunks and decodes them in one go).
 * The checks are Fastify's: a declared or received length over `limitBytes` is refused as soon as it is
 * seen (`FST_ERR_CTP_BODY_TOO_LARGE`), and a body that ends shorter or longer than its Content-Length is
 * refused (`FST_ERR_CTP_INVALID_CONTENT_LENGTH`); a stream error ends the read with that error. Chunks
 * are decoded `pieceBytes` at a time (`onPiece` hears each piece's length, for tests).
 * O(body) steps, memory the body's text and one piece of bytes.
 */
export function readBodyText(
  payload: Readable,
  contentLength: string | undefined,
  limitBytes: number,
  pieceBytes = BODY_DECODE_PIECE_BYTES,
  onPiece?: (bytes: number) => void,
): Promise<string> {
  const declared = contentLength === undefined ? Number.NaN : Number(contentLength);
  if (declared > limitBytes) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder("utf8");
    const pieces: string[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let received = 0;
    const decodePending = () => {
      if (pendingBytes === 0) return;
      onPiece?.(pendingBytes);
      pieces.push(decoder.write(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending)));
      pending = [];
      pendingBytes = 0;
    };
    const stop = () => {
      payload.removeListener("data", onData);
      payload.removeListener("end", onEnd);
      payload.removeListener("error", onError);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limitBytes) {
        stop();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= pieceBytes) decodePending();
    };
    const onEnd = () => {
      stop();
      if (!Number.isNaN(declared) && received !== declared) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      decodePending();
      pieces.push(decoder.end());
      resolve(pieces.join(""));
    };
    const onError = (error: Error & { statusCode?: number }) => {
      stop();
      if (!(typeof error.statusCode === "number" && error.statusCode >= 400)) error.statusCode = 400;
      reject(error);
    };
    payload.on("data", onData);
    payload.on("end", onEnd);
    payload.on("error", onError);
    payload.resume();
  });
}
