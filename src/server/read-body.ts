import type { Readable } from "node:stream";
import { errorCodes } from "fastify";
import { BodyBytes } from "../models/index.js";

/**
 * Reads a request body as bytes, never as one string: a large eval body is decoded case by case from its
 * bytes (`parseJsonBody`), so the 20 MB of a large eval never become one string, whose decoding or joining
 * would hold the event loop (and whose pieces young-generation collections would copy while it arrives).
 * A body with a Content-Length is copied into place chunk by chunk as it arrives; one without (chunked) is
 * joined at its end (`BodyBytes`).
 * The checks are Fastify's: a declared or received length over `limitBytes` is refused as soon as it is
 * seen (`FST_ERR_CTP_BODY_TOO_LARGE`), and a body that ends shorter or longer than its Content-Length is
 * refused (`FST_ERR_CTP_INVALID_CONTENT_LENGTH`); a stream error ends the read with that error.
 * O(body) steps, memory the body's bytes (kept off the JavaScript heap).
 */
export function readBody(
  payload: Readable,
  contentLength: string | undefined,
  limitBytes: number,
): Promise<Buffer> {
  const declared = contentLength === undefined ? Number.NaN : Number(contentLength);
  if (declared > limitBytes) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    // With a declared length, the bytes are copied into one buffer of that length as they arrive (BodyBytes).
    const body = new BodyBytes(declared, limitBytes);
    const stop = () => {
      payload.removeListener("data", onData);
      payload.removeListener("end", onEnd);
      payload.removeListener("error", onError);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      if (body.received + bytes.length > limitBytes) {
        stop();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      body.add(bytes);
    };
    const onEnd = () => {
      stop();
      if (!Number.isNaN(declared) && body.received !== declared) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      resolve(body.bytes());
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

/**
 * Whether the body is empty or only whitespace (as `String.prototype.trim` reads it). Any ASCII byte other
 * than whitespace answers at once; only a body without one (whitespace and non-ASCII characters) is decoded.
 */
export function isBlankBody(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte < 0x80 && byte !== 0x20 && (byte < 0x09 || byte > 0x0d)) return false;
  }
  return bytes.toString("utf8").trim() === "";
}
