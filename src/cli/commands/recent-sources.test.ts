import { describe, expect, it } from "vitest";
import { RecentSources } from "./recent-sources.js";

describe("RecentSources", () => {
  it("gives a repeated id and text the same prepared source, and a new id or text a new one", () => {
    const recent = new RecentSources(100);
    const first = recent.prepare([{ id: "a", text: "one" }]).get("a");
    expect(recent.prepare([{ id: "a", text: "one" }]).get("a")).toBe(first);
    expect(recent.prepare([{ id: "b", text: "one" }]).get("b")).not.toBe(first);
    expect(recent.prepare([{ id: "a", text: "two" }]).get("a")).not.toBe(first);
  });

  it("keeps the first of repeated ids, in request order, as prepareSources does", () => {
    const prepared = new RecentSources(100).prepare([
      { id: "b", text: "first" },
      { id: "a", text: "x" },
      { id: "b", text: "second" },
    ]);
    expect([...prepared.values()].map(({ id, text }) => ({ id, text }))).toEqual([
      { id: "b", text: "first" },
      { id: "a", text: "x" },
    ]);
  });

  it("drops the least recently used text once the texts exceed the character budget", () => {
    const recent = new RecentSources(10);
    const old = recent.prepare([{ id: "s", text: "aaaa" }]).get("s");
    const used = recent.prepare([{ id: "s", text: "bbbb" }]).get("s");
    recent.prepare([{ id: "s", text: "aaaa" }]); // now "bbbb" is the least recently used
    recent.prepare([{ id: "s", text: "cccc" }]); // 12 characters: "bbbb" goes
    expect(recent.prepare([{ id: "s", text: "aaaa" }]).get("s")).toBe(old);
    expect(recent.prepare([{ id: "s", text: "bbbb" }]).get("s")).not.toBe(used);
  });

  it("does not keep a text longer than the budget", () => {
    const recent = new RecentSources(3);
    const first = recent.prepare([{ id: "s", text: "long text" }]).get("s");
    expect(recent.prepare([{ id: "s", text: "long text" }]).get("s")).not.toBe(first);
  });
});
