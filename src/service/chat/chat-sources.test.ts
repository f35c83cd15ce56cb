import { describe, expect, it } from "vitest";
import { ServiceError } from "../../errors/index.js";
import { chatSources } from "./chat-sources.js";

const budget = 100_000;
const user = { role: "user", content: "When was Northwind founded?" };

describe("chatSources", () => {
  it.each([
    [
      "verification.sources first, over documents and tool messages",
      {
        verification: { sources: [{ id: "a", text: "A text." }] },
        documents: [{ text: "D text." }],
        messages: [user, { role: "tool", tool_call_id: "call_1", content: "T text." }],
      },
      { from: "verification", sources: [{ id: "a", text: "A text." }] },
    ],
    [
      "Groq-style documents next: ids kept, unnamed ones by 1-based position, strings and `content` read",
      {
        verification: {},
        documents: [{ id: "faq", text: "F." }, { text: "Second." }, "Third.", { content: "Fourth." }, 7],
        messages: [user],
      },
      {
        from: "documents",
        sources: [
          { id: "faq", text: "F." },
          { id: "2", text: "Second." },
          { id: "3", text: "Third." },
          { id: "4", text: "Fourth." },
        ],
      },
    ],
    [
      "tool messages last: one source per message, named by its tool_call_id, text parts joined",
      {
        verification: {},
        messages: [
          user,
          { role: "tool", tool_call_id: "call_1", content: "Plain result." },
          {
            role: "tool",
            tool_call_id: "call_2",
            content: [
              { type: "text", text: "Part one. " },
              { type: "text", text: "Two." },
            ],
          },
        ],
      },
      {
        from: "tool_messages",
        sources: [
          { id: "call_1", text: "Plain result." },
          { id: "call_2", text: "Part one. Two." },
        ],
      },
    ],
    [
      "a tool's JSON list of {id, text} gives one source per entry, under a known key too; repeated ids suffixed",
      {
        verification: {},
        messages: [
          user,
          {
            role: "tool",
            tool_call_id: "call_1",
            content: JSON.stringify([
              { id: "p1", text: "One." },
              { id: "p2", snippet: "Two." },
            ]),
          },
          {
            role: "tool",
            tool_call_id: "call_2",
            content: JSON.stringify({ results: [{ id: "p1", content: "Again." }] }),
          },
          { role: "tool", tool_call_id: "call_3", content: '{"weather": "sunny"}' },
        ],
      },
      {
        from: "tool_messages",
        sources: [
          { id: "p1", text: "One." },
          { id: "p2", text: "Two." },
          { id: "p1-2", text: "Again." },
          { id: "call_3", text: '{"weather": "sunny"}' },
        ],
      },
    ],
  ])("%s", (_name, body, expected) => {
    expect(chatSources(body as Record<string, unknown>, budget)).toEqual(expected);
  });

  it("refuses a request that asks for verification and holds no sources, naming verification.sources", () => {
    const error = (() => {
      try {
        chatSources({ verification: {}, messages: [user] }, budget);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).toBody().error).toMatchObject({
      type: "no_sources",
      param: "verification.sources",
    });
  });

  it("holds the sources to the budget", () => {
    const body = { verification: {}, documents: ["x".repeat(11)], messages: [user] };
    expect(() => chatSources(body, 10)).toThrow(/"documents" totals 11 characters; the limit is 10/);
  });
});
