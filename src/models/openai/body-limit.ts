/** A body read to the end, or refused because it passed the byte limit. */
export type LimitedBody = { ok: true; text: string } | { ok: false; bytesRead: number };

/**
 * Reads a response body as UTF-8, streaming, and stops as soon as more than `maxBytes` have arrived: the
 * stream is cancelled (which closes the connection) and nothing beyond the limit is kept. Read errors (a reset
 * connection, an abort) are rethrown as they come.
 */
export async function readBodyWithLimit(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<LimitedBody> {
  if (body === null) return { ok: true, text: "" };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytesRead = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytesRead += value.byteLength;
    if (bytesRead > maxBytes) {
      // A failing cancel must not hide the real outcome: the body is refused either way.
      await reader.cancel("response larger than the limit").catch(() => undefined);
      return { ok: false, bytesRead };
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return { ok: true, text: parts.join("") };
}
