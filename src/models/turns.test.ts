import { describe, expect, it } from "vitest";
import { nextTurn, runStepsYielding, turnQueueSlots } from "./turns.js";

// A callback queued with setImmediate runs in the next pass of the event loop: it marks where a pass ends.
function passEnd(order: string[]): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      order.push("|");
      resolve();
    }),
  );
}

describe("nextTurn", () => {
  it("releases one waiter per pass of the event loop, first come first served", async () => {
    const order: string[] = [];
    const waiters = ["a", "b", "c"].map((name) => nextTurn().then(() => order.push(name)));
    for (let pass = 0; pass < 3; pass += 1) await passEnd(order);
    await Promise.all(waiters);
    // With a bare setImmediate per waiter, all three would run before the first mark.
    expect(order).toEqual(["a", "|", "b", "|", "c", "|"]);
  });

  it("gives two step runs one step per pass between them, alternating", async () => {
    const order: string[] = [];
    function* steps(name: string) {
      for (let step = 1; step <= 3; step += 1) {
        order.push(`${name}${step}`);
        if (step < 3) yield;
      }
      return name;
    }
    const runs = [runStepsYielding(steps("a")), runStepsYielding(steps("b"))];
    // Each run's first step runs at once; every later step waits for a pass of its own.
    for (let pass = 0; pass < 4; pass += 1) await passEnd(order);
    expect(await Promise.all(runs)).toEqual(["a", "b"]);
    expect(order).toEqual(["a1", "b1", "a2", "|", "b2", "|", "a3", "|", "b3", "|"]);
  });

  it("keeps its memory bounded by the callers waiting when the queue never empties", async () => {
    // Two callers that ask again as soon as they are released: the queue holds one or two at every moment.
    let largest = 0;
    const caller = async () => {
      for (let turn = 0; turn < 3_000; turn += 1) {
        await nextTurn();
        largest = Math.max(largest, turnQueueSlots());
      }
    };
    await Promise.all([caller(), caller()]);
    // Without dropping released slots, the array would hold all 6,000 turns taken.
    expect(largest).toBeLessThanOrEqual(2_050);
  });
});
