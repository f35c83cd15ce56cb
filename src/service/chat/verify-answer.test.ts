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
    const reports = await verifyChatAnswers(answers, found, { action: "remove" }, []);
    const alone = await Promise.all(
      answers.map((answer) => verifyChatAnswer(answer, found, { action: "remove" }, [])),
    );
    expect(reports).toEqual(alone);
    expect(reports.map((report) => report.verdict)).toEqual(["pass", "fail", "fail"]);
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
