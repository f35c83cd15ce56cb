import { ServerResponse } from "node:http";
import { vi } from "vitest";

/**
 * What `run` returns and the strings every HTTP response of this process wrote while it ran, one entry per
 * `write` (a body sent whole with `end` writes none): tests that a large answer is written in chunks read them.
 */
export async function writesDuring<T>(run: () => Promise<T>): Promise<{ value: T; writes: string[] }> {
  const writes: string[] = [];
  const original = ServerResponse.prototype.write;
  const write = vi.spyOn(ServerResponse.prototype, "write").mockImplementation(function (
    this: ServerResponse,
    ...args: unknown[]
  ) {
    if (typeof args[0] === "string") writes.push(args[0]);
    return (original as (...all: unknown[]) => boolean).apply(this, args);
  });
  try {
    return { value: await run(), writes };
  } finally {
    write.mockRestore();
  }
}
