import { isUtf8 } from "node:buffer";

/**
 * A body's bytes as its chunks arrive (a request body, a gateway's answer). With a declared length within the
 * limit (a Content-Length) they are copied into one buffer of that length as they come: joining megabytes of
 * chunks at the end is one more copy into fresh memory, in the pass that also decodes them (about 100 ms for
 * a 20 MB body on the 2-core bench machine). The buffer's pages are only touched as bytes arrive, so a length
 * declared and never sent costs none. Without a declared length the chunks are joined at the end.
 */
export class BodyBytes {
  /** Bytes received so far, whether kept or not. */
  received = 0;
  private readonly target: Buffer | undefined;
  private readonly chunks: Buffer[] = [];

  constructor(declared: number, limitBytes: number) {
    this.target =
      Number.isSafeInteger(declared) && declared > 0 && declared <= limitBytes
        ? Buffer.allocUnsafe(declared)
        : undefined;
  }

  /** Keeps a chunk; bytes past the declared length are counted but not kept. */
  add(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.target === undefined) this.chunks.push(chunk);
    else if (this.received <= this.target.length) chunk.copy(this.target, this.received - chunk.length);
  }

  /** The bytes kept, in order. */
  bytes(): Buffer {
    if (this.target !== undefined)
      return this.target.subarray(0, Math.min(this.received, this.target.length));
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.received);
  }
}

/**
 * Where `bytes` stop being UTF-8: the offset of the first byte that starts no character as UTF-8 allows it (a
 * stray continuation byte, or a lead byte whose sequence is overlong, a surrogate, past U+10FFFF, broken or
 * cut off at the end), or -1 when all of it is UTF-8. A decoder would read each such byte as U+FFFD and so
 * shift every offset after it. Node's native `isUtf8` answers first; the walk runs only on a bad body. O(n).
 */
export function invalidUtf8At(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  for (let at = 0; at < bytes.length; ) {
    const first = bytes[at] as number;
    if (first < 0x80) {
      at += 1;
      continue;
    }
    // The length of the sequence `first` starts, and the range its second byte must be in.
    let length = 0;
    let low = 0x80;
    let high = 0xbf;
    if (first >= 0xc2 && first <= 0xdf) length = 2;
    else if (first >= 0xe0 && first <= 0xef) {
      length = 3;
      if (first === 0xe0) low = 0xa0;
      if (first === 0xed) high = 0x9f;
    } else if (first >= 0xf0 && first <= 0xf4) {
      length = 4;
      if (first === 0xf0) low = 0x90;
      if (first === 0xf4) high = 0x8f;
    } else return at;
    for (let next = 1; next < length; next += 1) {
      const byte = bytes[at + next];
      if (byte === undefined) return at;
      if (next === 1 ? byte < low || byte > high : byte < 0x80 || byte > 0xbf) return at;
    }
    at += length;
  }
  return -1;
}

/**
 * Where `bytes` stop being UTF-8, said for an error message ("the byte at offset 3 (0xe9) does not belong to a
 * UTF-8 character"), or undefined when all of it is UTF-8 (`invalidUtf8At`).
 */
export function notUtf8At(bytes: Uint8Array): string | undefined {
  const at = invalidUtf8At(bytes);
  if (at < 0) return undefined;
  const hex = (bytes[at] as number).toString(16).padStart(2, "0");
  return `the byte at offset ${at} (0x${hex}) does not belong to a UTF-8 character`;
}
