import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { errorCodes } from "fastify";

/**
 * Reads a request body as text, decoding each chunk as it arrives, so a 20 MB body costs the event loop
 * no single long decode at the end (Fastify's own reader joins the raw chunks and decodes them in one go).
 * The checks are Fastify's: a declared or received length over `limitBytes` is refused as soon as it is
 * seen (`FST_ERR_CTP_BODY_TOO_LARGE`), and a body that ends shorter or longer than its Content-Length is
 * refused (`FST_ERR_CTP_INVALID_CONTENT_LENGTH`); a stream error ends the read with that error.
 * O(body) steps, memory the body's text.
 */
export function readBodyText(
  payload: Readable,
  contentLength: string | undefined,
  limitBytes: number,
): Promise<string> {
  const declared = contentLength === undefined ? Number.NaN : Number(contentLength);
  if (declared > limitBytes) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder("utf8");
    const pieces: string[] = [];
    let received = 0;
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
      pieces.push(decoder.write(bytes));
    };
    const onEnd = () => {
      stop();
      if (!Number.isNaN(declared) && received !== declared) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
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
