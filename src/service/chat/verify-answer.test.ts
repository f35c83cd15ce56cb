import { describe, expect, it } from "vitest";
import { type AnswerCheckOptions, checkAnswer, type StepCounter } from "../../core/index.js";
import { ServiceError } from "../../errors/index.js";
import { answerOptionsOf, verifyChatAnswer, verifyChatAnswers } from "./verify-answer.js";

// Sources and answers written for this test.
const found = {
  from: "verification" as const,
  sources: [
    {
      id: "report",
      text: "Northwind was founded in 2016 in Lyon. The company employs 240 people in four offices.",
    },
  ],
};
const answers = [
  "Northwind was founded in 2016 in Lyon [report].",
  "Northwind was founded in 2016 in Lyon [report]. It has offices in Tokyo [report].",
  "The company employs 240 people [report]. It employs 300 people [report].",
];

describe("verifyChatAnswers", () => {
  it("reports each answer as a check of it alone would", async () => {
    // The question is read once and shared by the answers' checks: each verdict is still its own check's.
    const messages = [
      { role: "user", content: "When was Northwind founded, and how many people work there?" },
    ];
    const reports = await verifyChatAnswers(answers, found, { action: "remove" }, messages);
    const alone = await Promise.all(
      answers.map((answer) => verifyChatAnswer(answer, found, { action: "remove" }, messages)),
    );
    expect(reports).toEqual(alone);
    expect(reports.map((report) => report.verdict)).toEqual(["pass", "fail", "fail"]);
  });

  it("reads the question once for every answer, not once per answer", async () => {
    const question = [{ role: "user", content: "Alpha beta gamma delta epsilon zeta eta ".repeat(10_000) }];
    const stepsOf = async (texts: readonly string[], messages: unknown): Promise<number> => {
      const counter: StepCounter = { steps: 0 };
      await verifyChatAnswers(texts, found, {}, messages, undefined, counter);
      return counter.steps;
    };
    const questionSteps = (await stepsOf(answers, question)) - (await stepsOf(answers, []));
    // One reading costs a step a character at least; reading it per answer cost three times that.
    expect(questionSteps).toBeGreaterThanOrEqual(question[0]?.content.length ?? 0);
    expect(questionSteps).toBe(
      (await stepsOf(answers.slice(0, 1), question)) - (await stepsOf(answers.slice(0, 1), [])),
    );
  });

  it("stops with the signal's reason once the caller has left", async () => {
    const controller = new AbortController();
    const reason = new ServiceError("gateway_error", "The caller disconnected.");
    controller.abort(reason);
    await expect(verifyChatAnswers(answers, found, {}, [], controller.signal)).rejects.toBe(reason);
  });
});

describe("answerOptionsOf", () => {
  it("reads the question once for the checks made with one set of options (a streamed answer's pieces)", () => {
    const question = "Alpha beta gamma delta epsilon zeta eta ".repeat(10_000);
    const options = answerOptionsOf({}, [{ role: "user", content: question }]);
    const stepsOf = (answerOptions: AnswerCheckOptions): number => {
      const counter: StepCounter = { steps: 0 };
      checkAnswer([{ id: "s", text: "Alpha beta gamma." }], "Alpha beta gamma [s].", answerOptions, counter);
      return counter.steps;
    };
    const first = stepsOf(options);
    const second = stepsOf(options);
    expect(first - second).toBeGreaterThanOrEqual(question.length);
    // Fresh options read it again.
    expect(stepsOf(answerOptionsOf({}, [{ role: "user", content: question }]))).toBe(first);
  });
});
