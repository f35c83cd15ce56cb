import { describe, expect, it } from "vitest";
import { answerOfChatCompletion } from "./chat-completion-paste.js";

describe("answerOfChatCompletion", () => {
  const answer = "Refunds are accepted within 30 days [policy].";
  it.each([
    [
      "a chat.completion: the first choice's content",
      JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion",
        choices: [
          { index: 1, message: { role: "assistant", content: "Other." } },
          { index: 0, message: { role: "assistant", content: answer } },
        ],
        verification: { verdict: "pass" },
      }),
      answer,
    ],
    [
      "content given as text parts, joined",
      JSON.stringify({
        choices: [
          {
            message: {
              content: [
                { type: "text", text: "Refunds " },
                { type: "text", text: "[1]." },
              ],
            },
          },
        ],
      }),
      "Refunds [1].",
    ],
    ["prose, kept as it is", answer, undefined],
    ["JSON that is not a completion", '{"answer": "x"}', undefined],
    ["broken JSON", '{"choices": [', undefined],
  ])("%s", (_name, text, expected) => {
    expect(answerOfChatCompletion(text)).toBe(expected);
  });
});
