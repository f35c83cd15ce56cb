import { describe, expect, it } from "vitest";
import type { AnswerUnsupported } from "../../core/index.js";
import { buildProseMessages, buildProseRetryFeedback } from "./prose-prompts.js";

const dropped = (entry: Partial<AnswerUnsupported>): AnswerUnsupported => ({
  claim: "Northwind runs a bakery in Paris.",
  reason: "no_support",
  answerRange: [0, 42],
  ...entry,
});

describe("buildProseMessages", () => {
  it("asks for prose with [id] markers, with the sources, then the caller's messages in order", () => {
    const messages = buildProseMessages(
      [{ id: "report", text: "Northwind was founded in 2016." }],
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "When was Northwind founded?" },
      ],
    );
    expect(messages[0]?.role).toBe("system");
    expect(messages[0]?.content).toContain("in square brackets, like [doc-a]");
    expect(messages[0]?.content).toContain('<source id="report">\nNorthwind was founded in 2016.\n</source>');
    expect(messages.slice(1).map((message) => message.content)).toEqual([
      "Be brief.",
      "When was Northwind founded?",
    ]);
  });
});

describe("buildProseRetryFeedback", () => {
  it("shows the previous answer, then each dropped sentence with its reason in words", () => {
    const [previous, feedback] = buildProseRetryFeedback("The answer [report].", [
      dropped({ reason: "wrong_source", detail: { foundIn: ["report", "notes"] } }),
      dropped({ claim: "It was founded by Ada.", reason: "entity_not_found", detail: { entity: "Ada" } }),
      dropped({ claim: "It employs 250 people.", reason: "number_not_found" }),
    ]);
    expect(previous).toEqual({ role: "assistant", content: "The answer [report]." });
    expect(feedback?.role).toBe("user");
    const lines = feedback?.content.split("\n") ?? [];
    expect(lines.slice(1, 4)).toEqual([
      '- "Northwind runs a bakery in Paris.": the source it cites does not say this, but [report], [notes] do: cite one of those',
      '- "It was founded by Ada.": "Ada" occurs in no source',
      '- "It employs 250 people.": a number in it is not in the source that supports it',
    ]);
  });

  it.each([
    ["no_support", "does not say this"],
    ["entity_not_found", "a name, code or identifier in it occurs in no source"],
    ["unknown_source", "its marker names no source"],
    ["quote_not_found", "the text in quotation marks is not in the cited source"],
  ] as const)("says why for %s without explain's detail", (reason, words) => {
    const [, feedback] = buildProseRetryFeedback("x", [dropped({ reason })]);
    expect(feedback?.content).toContain(words);
  });
});
