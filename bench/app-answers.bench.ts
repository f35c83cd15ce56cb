// Answer mode on twelve answers written as chat and search apps write them (bench/support/app-answers.ts),
// each line judged by a careful reader: how many verdicts are right, the false flags (a line the reader keeps,
// dropped), the misses (a line the reader drops, kept) and the lines that are not claims but were flagged.
import { checkAnswer } from "../src/core/index.js";
import { APP_ANSWERS, judgeAppAnswers } from "./support/app-answers.js";

export default async function appAnswers(): Promise<void> {
  const outcomes = judgeAppAnswers(checkAnswer);
  console.log(`${APP_ANSWERS.length} answers, ${outcomes.length} judged lines and clauses.\n`);
  console.log("| answer | line | reader | verdict | right |");
  console.log("|---|---|---|---|---|");
  for (const { answer, part, outcome, reason, right } of outcomes) {
    const got = outcome === "dropped" ? `dropped (${reason})` : "kept";
    console.log(
      `| ${answer} | ${part.find.replaceAll("|", "\\|")} | ${part.verdict} | ${got} | ${right ? "yes" : "**no**"} |`,
    );
  }
  const count = (test: (outcome: (typeof outcomes)[number]) => boolean) => outcomes.filter(test).length;
  console.log(
    `\nRight: ${count((o) => o.right)} of ${outcomes.length}; false flags: ${count((o) => o.part.verdict === "kept" && !o.right)}; misses: ${count((o) => o.part.verdict === "dropped" && !o.right)}; lines that are not claims flagged: ${count((o) => o.part.verdict === "framing" && !o.right)}.`,
  );
}
