import { describe, expect, it } from "vitest";
import { MAX_ANSWER_BEST_SPAN_CHARS, MAX_ANSWER_CLAIMS } from "../../limits.js";
import { checkDocument } from "./check-document.js";

// `verified check` in answer mode gives the endpoint's result: the same bound on best spans, no claim cap.

type AnswerWire = { unsupported: { reason: string; quote?: string }[]; citations: unknown[] };

describe("checkDocument with an answer", () => {
  it("lists dropped sentences past MAX_ANSWER_BEST_SPAN_CHARS of best spans without their span, as the endpoint does", () => {
    // A 993-character source sentence and 1,100 sentences whose quotation it lacks.
    const long = { id: "s", text: `${"Alpha beta gamma delta ".repeat(43)}end.` };
    const outcome = checkDocument({
      sources: [long],
      answer: 'It says "alpha beta gammma" [s]. '.repeat(1_100),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    const { unsupported } = outcome.result as AnswerWire;
    expect(unsupported).toHaveLength(1_100);
    const withSpan = unsupported.filter((entry) => entry.quote !== undefined);
    expect(withSpan).toHaveLength(Math.floor(MAX_ANSWER_BEST_SPAN_CHARS / 993));
    expect(unsupported.slice(0, withSpan.length)).toEqual(withSpan);
  });

  it("checks an answer of more than MAX_ANSWER_CLAIMS sentences, which the endpoint refuses", () => {
    const source = { id: "a", text: "Lyon." };
    const outcome = checkDocument({ sources: [source], answer: "Lyon. ".repeat(MAX_ANSWER_CLAIMS + 1) });
    if (!outcome.ok) throw new Error(outcome.message);
    expect((outcome.result as AnswerWire).citations).toHaveLength(MAX_ANSWER_CLAIMS + 1);
  });
});
