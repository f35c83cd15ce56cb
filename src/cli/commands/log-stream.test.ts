import { Writable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createBatchedLogStream } from "./log-stream.js";

function recorder(): { out: Writable; writes: string[] } {
  const writes: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      done();
    },
  });
  return { out, writes };
}

describe("createBatchedLogStream", () => {
  it("writes the lines of one turn of the event loop together, in order, after the turn", async () => {
    const { out, writes } = recorder();
    const stream = createBatchedLogStream(out);
    stream.write('{"n":1}\n');
    stream.write('{"n":2}\n');
    expect(writes).toEqual([]);
    await nextTurn();
    stream.write('{"n":3}\n');
    await nextTurn();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it("flush writes what is held at once, and nothing when nothing is", async () => {
    const { out, writes } = recorder();
    const stream = createBatchedLogStream(out);
    stream.flush();
    stream.write("last\n");
    stream.flush();
    expect(writes).toEqual(["last\n"]);
    await nextTurn();
    expect(writes).toEqual(["last\n"]);
  });
});
