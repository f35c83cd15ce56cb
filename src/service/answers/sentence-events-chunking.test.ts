import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AnswerResult, answerClaims, markerSteps, PAUSE, type Source } from "../../core/index.js";
import { runSteps } from "../../util.js";
import { checkAnswerYielding } from "../check-answer.js";
import type { CreateProgress } from "../claim-events.js";
import { createSentenceEvents } from "./sentence-events.js";
import { type ClaimSpan, cutMayFollow, findCut } from "./stream-cuts.js";

/** The splitting steps a streamed answer may take per character of it, however it is chunked. */
const STEPS_PER_CHARACTER = 80;

// The streamed check of a prose answer, however the model's stream cuts it: the same events as the whole
// answer checked at once, and splitting work linear in the answer.

const sources: Source[] = [
  {
    id: "s",
    text: "Alpha beta gamma. Delta rose 5% in 2020. 好的天气。 Café 😀 naïve 𝒜lpha. The | table | row.",
  },
  { id: "t", text: `Epsilon zeta eta. ${"Filler words here. ".repeat(40)}` },
];

/** An observer keeping each event's type and wire entry. */
function observe() {
  const events: unknown[] = [];
  const entry = (event: CreateProgress): unknown[] =>
    event.type === "claim"
      ? ["claim", event.citation]
      : event.type === "unsupported"
        ? ["unsupported", event.unsupported]
        : [event.type];
  return {
    events,
    observer: { open: () => {}, progress: (event: CreateProgress) => events.push(entry(event)) },
  };
}

/** The events of the whole answer checked at once (nothing streamed before the answer). */
async function wholeEvents(answer: string): Promise<unknown[]> {
  const { events, observer } = observe();
  const sentences = createSentenceEvents(sources, {}, observer);
  sentences.nextCall();
  await sentences.settle(answer);
  return events;
}

/** Events reported before `settle`, over every streamed answer: the streaming the tests exercise. */
const reportedEarly = { events: 0, total: 0 };

/** The events of one streamed answer, fed in `chunks`; with `counter`, the steps of the stream's splitting. */
async function streamedEvents(
  chunks: readonly string[],
  counter?: { steps: number },
  checkedAgainst: Source[] = sources,
): Promise<unknown[]> {
  return (await streamed(chunks, counter, checkedAgainst)).events;
}

/**
 * One streamed answer fed in `chunks`: its events and its result; with `counter`, the steps of the stream's
 * splitting, with `checkCounter` those of its checks.
 */
async function streamed(
  chunks: readonly string[],
  counter?: { steps: number },
  checkedAgainst: Source[] = sources,
  checkCounter?: { steps: number },
): Promise<{ events: unknown[]; result: AnswerResult; path: string | undefined }> {
  const { events, observer } = observe();
  const sentences = createSentenceEvents(
    checkedAgainst,
    {},
    observer,
    undefined,
    undefined,
    counter,
    checkCounter,
  );
  const stream = sentences.nextCall();
  for (const chunk of chunks) {
    stream.onText(chunk);
    // Each piece's check runs to its end before the next chunk: the most splits a chunking can cause.
    await sentences.idle();
  }
  reportedEarly.events += events.length;
  const result = await sentences.settle(chunks.join(""));
  reportedEarly.total += events.length;
  return { events, result, path: sentences.settled?.path };
}

/** The one-shot check of a model's whole answer; with `counter`, its steps. */
const oneShot = (answer: string, checkedAgainst: Source[] = sources, counter?: { steps: number }) =>
  checkAnswerYielding(checkedAgainst, answer, {}, undefined, undefined, { author: "model", counter });

/** The steps of splitting `answer` once: its markers, then its claims. */
function splitSteps(answer: string): number {
  const counter = { steps: 0 };
  for (const _claim of answerClaims(
    answer,
    runSteps(markerSteps(answer, Number.POSITIVE_INFINITY, counter)),
    counter,
  ));
  return counter.steps;
}

/** `text` cut before each index of `cuts` (sorted, deduplicated, inside the text). */
function cutAt(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let start = 0;
  for (const cut of at) {
    if (cut > start) chunks.push(text.slice(start, cut));
    start = Math.max(start, cut);
  }
  chunks.push(text.slice(start));
  return chunks.filter((chunk) => chunk !== "");
}

const inChunks = (size: number) => (text: string) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, index) =>
    text.slice(index * size, (index + 1) * size),
  );

const everyCharacter = (text: string): string[] =>
  Array.from({ length: text.length }, (_, at) => text[at] as string);

// Answers of sentences: words the sources hold and words they do not, astral letters and emoji, combining marks,
// CJK text; ends that are runs of terminators, CJK full stops (one before a closing bracket), a digit after a
// full stop; markers; line starts of lists, headings, block quotes, tables and emphasis; CRLF, lone CR and
// blank lines; now and then a fence, a table's rule, or a run of words that makes a line over 1,000 characters.
const WORDS = [
  "Alpha beta gamma",
  "Delta rose 5% in 2020",
  "Epsilon zeta",
  "Omega psi",
  "Café naïve",
  "Cafe\u0301",
  "😀 Alpha",
  "𝒜lpha",
  "好的天气",
  "the | table | row",
];
const LEADS = ["", "", "", "- ", "1. ", "# ", "> ", "| ", "**", "Note: "];
const MARKERS = ["", " [s]", " [t]", " [1]", " [s][t]", " [9]"];
const ENDS = [". ", ". ", "! ", "?! ", "!!! ", "... ", "。", "。」", ". 5 of them. ", ":", "** ", ""];
const BREAKS = ["", "", " ", "\n", "\r\n", "\n\n", "\r"];
const BLOCKS = ["```\ncode. Here [s].\n```\n", "|---|---|\n", `${"filler words here ".repeat(30)}`, "[s]\n"];
const sentence = fc
  .tuple(
    fc.constantFrom(...LEADS),
    fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    fc.constantFrom(...MARKERS),
    fc.constantFrom(...ENDS),
    fc.constantFrom(...BREAKS),
  )
  .map(([lead, words, marker, end, lineBreak]) => `${lead}${words.join(" ")}${marker}${end}${lineBreak}`);
const answers = fc
  .array(fc.oneof({ weight: 9, arbitrary: sentence }, { weight: 1, arbitrary: fc.constantFrom(...BLOCKS) }), {
    minLength: 1,
    maxLength: 40,
  })
  .map((parts) => parts.join(""));
// The answer-wide readings besides: an acronym some sentence spells out (`Alpha Beta Gamma` is in a source),
// footnote markers and their definitions, in any piece.
const wideSentence = fc
  .tuple(
    fc.constantFrom(...LEADS),
    fc.array(fc.constantFrom(...WORDS, "Alpha Beta Gamma", "ABG", "the ABG rose"), {
      minLength: 1,
      maxLength: 3,
    }),
    fc.constantFrom(...MARKERS, " [^1]", " [^2]"),
    fc.constantFrom(...ENDS),
    fc.constantFrom(...BREAKS),
  )
  .map(([lead, words, marker, end, lineBreak]) => `${lead}${words.join(" ")}${marker}${end}${lineBreak}`);
const wideAnswers = fc
  .array(
    fc.oneof(
      { weight: 9, arbitrary: wideSentence },
      { weight: 1, arbitrary: fc.constantFrom(...BLOCKS, "\n[^1]: s\n", "\n[^2]: t\n") },
    ),
    { minLength: 1, maxLength: 40 },
  )
  .map((parts) => parts.join(""));

describe("createSentenceEvents, however the stream is cut", () => {
  it("reports the events of the whole answer checked at once, for any chunking (property)", async () => {
    reportedEarly.events = 0;
    reportedEarly.total = 0;
    await fc.assert(
      fc.asyncProperty(answers, fc.array(fc.nat(), { maxLength: 300 }), async (answer, cuts) => {
        expect(await streamedEvents(cutAt(answer, cuts))).toEqual(await wholeEvents(answer));
      }),
      { seed: 3434, numRuns: 150 },
    );
    // Many events came while streaming, not at the end: the property compares streamed pieces' checks.
    expect(reportedEarly.events).toBeGreaterThan(reportedEarly.total / 4);
  }, 120_000);

  it("settles on the one-shot check of the whole answer, for any chunking, answer-wide readings included (property)", async () => {
    const paths = { assembled: 0, whole: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(answers, wideAnswers),
        fc.array(fc.nat(), { maxLength: 300 }),
        async (answer, cuts) => {
          const { result, path } = await streamed(cutAt(answer, cuts));
          if (path === "assembled" || path === "whole") paths[path] += 1;
          expect(result).toEqual(await oneShot(answer));
        },
      ),
      { seed: 3434, numRuns: 200 },
    );
    // Both ways are taken: most answers are assembled from their pieces, the others checked again whole.
    expect(paths.assembled).toBeGreaterThan(2 * paths.whole);
    expect(paths.whole).toBeGreaterThan(20);
  }, 120_000);

  it.each([
    ["cited sentences", (index: number) => `Alpha beta gamma ${index} [s]. Omega psi [t]!\n`],
    ["dropped sentences", (index: number) => `Omega psi number ${index} [t]. `],
    ["headings and lists", (index: number) => `# Part ${index}\n- Epsilon zeta eta [t].\n`],
    // One line of 15,000 characters, cut while streaming at its sure breaks, whose last sentences (`. ` before a
    // digit) could split otherwise alone: the pieces of its last 1,000 characters are taken back and checked
    // with the rest, not the whole answer again.
    [
      "one long line ending in a digit after a full stop",
      (index: number) =>
        index < 399
          ? `Alpha beta gamma [s]. Omega psi ${index} [t]. `
          : "Delta rose 5% in 2020 [s]. 5 of them [s].",
    ],
  ] as const)(
    "checks a streamed answer of %s in at most 1.2 times the steps of one check",
    async (_name, line) => {
      const answer = Array.from({ length: 400 }, (_, index) => line(index)).join("");
      const once = { steps: 0 };
      const whole = await oneShot(answer, sources, once);
      for (const size of [1, 16, 256]) {
        const checkCounter = { steps: 0 };
        const { result, path } = await streamed(inChunks(size)(answer), undefined, sources, checkCounter);
        expect(result).toEqual(whole);
        // Before, the whole answer was checked again at the end: twice the steps of one check and more.
        expect(checkCounter.steps).toBeLessThanOrEqual(1.2 * once.steps);
        expect(path).toBe("assembled");
      }
    },
    120_000,
  );

  // Each piece of a stream is split once, by the stream: its check is given the piece's claims (`claims`), so the
  // pieces' checks together do one check's work beyond splitting, and no splitting.
  it.each([
    ["cited sentences", (index: number) => `Alpha beta gamma ${index} [s]. Omega psi [t]!\n`],
    ["dropped sentences", (index: number) => `Omega psi number ${index} [t]. `],
    ["headings and lists", (index: number) => `# Part ${index}\n- Epsilon zeta eta [t].\n`],
    ["quotations", (index: number) => `It says "${"a b c ".repeat(20 + (index % 7))}d" [s]. `],
  ] as const)("splits no streamed piece of %s again to check it", async (_name, line) => {
    const answer = Array.from({ length: 400 }, (_, index) => line(index)).join("");
    const once = { steps: 0 };
    const whole = await oneShot(answer, sources, once);
    const split = splitSteps(answer);
    for (const size of [1, 16, 64, 256]) {
      const checkCounter = { steps: 0 };
      const { result, path } = await streamed(inChunks(size)(answer), undefined, sources, checkCounter);
      expect(result).toEqual(whole);
      expect(path).toBe("assembled");
      // Before, each piece's check split it again: 6 to 16 times one check's steps beyond its splitting.
      expect(checkCounter.steps).toBeLessThanOrEqual(1.25 * (once.steps - split));
    }
  });

  it("finds a place to cut whenever a split of the text would cut it, read in any chunks (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(answers, wideAnswers),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 50 }),
        (text, oneLine, cuts) => {
          // On one line, only sentence breaks can be cuts.
          const answer = oneLine ? text.replace(/[\r\n]/g, " ") : text;
          const found = runSteps(markerSteps(answer));
          const claims: ClaimSpan[] = [];
          for (const claim of answerClaims(answer, found))
            if (claim !== PAUSE) claims.push({ start: claim.range[0], end: claim.range[1] });
          const cut = runSteps(findCut(answer, claims, found.hidden, { chars: 0, plainHead: true }));
          if (cut !== undefined && cut.at > 0) {
            // The place is found where it arrives: the line break before a line's start, or the first letter of a
            // sentence after a sentence end.
            const before = { state: 0 };
            cutMayFollow(before, answer.slice(0, cut.at - 1));
            expect(cutMayFollow(before, answer.slice(cut.at - 1, cut.at + 1))).toBe(true);
          }
          const whole = cutMayFollow({ state: 0 }, answer);
          const watch = { state: 0 };
          let chunked = false;
          for (const chunk of cutAt(answer, cuts)) chunked = cutMayFollow(watch, chunk) || chunked;
          expect(chunked).toBe(whole);
        },
      ),
      { seed: 3434, numRuns: 300 },
    );
  });

  // A split finds a new cut only once a sentence after a sentence end (or a line break) has come: a full stop
  // alone does not start one, so a stream of long sentences splits each about once.
  it.each([1, 16])(
    "splits a stream of long quoted sentences about once, %i characters a chunk",
    async (size) => {
      const answer = Array.from(
        { length: 400 },
        (_, index) => `It says "${"a b c ".repeat(20 + (index % 7))}d" [s]. `,
      ).join("");
      const counter = { steps: 0 };
      await streamed(inChunks(size)(answer), counter);
      // Before, a split ran at every sentence's full stop and again once the next sentence had begun: 1.64
      // and 1.30 times one split of the whole answer, one and 16 characters a chunk.
      expect(counter.steps).toBeLessThanOrEqual(1.15 * splitSteps(answer));
    },
  );

  it.each([
    ["one character a chunk", "Alpha beta gamma [s]. Omega psi [t]!\n\n".repeat(40), everyCharacter],
    [
      "CRLF and a surrogate pair cut in half",
      "Alpha 😀 beta [s].\r\nOmega psi [t].\r\n".repeat(40),
      everyCharacter,
    ],
    [
      "terminator runs cut across chunks",
      "Alpha beta [s]?!?!?! Omega!!! psi [t]... ".repeat(40),
      (text: string) =>
        cutAt(
          text,
          Array.from({ length: text.length / 2 }, (_, index) => 2 * index + 1),
        ),
    ],
  ] as const)(
    "reports %s as the whole answer at once",
    async (_name, answer, chunking) => {
      const whole = await wholeEvents(answer);
      expect(whole.length).toBeGreaterThan(40);
      expect(await streamedEvents(chunking(answer))).toEqual(whole);
    },
    120_000,
  );

  // Sources at the default budget: a streamed check's work bound (STREAM_CHECK_WORK_FACTOR times sources
  // plus answer) then allows many checks, so only the splitting itself keeps the work linear.
  const budgetSources: Source[] = [{ id: "s", text: "Alpha beta gamma delta. ".repeat(4_100) }];
  const fences = "```\nx. y!\n```\n";

  it.each([
    ["one character a chunk", "Alpha beta gamma [s]. Omega psi!\n\n".repeat(300), everyCharacter],
    [
      "4 MiB of fences in 64 KiB chunks",
      `${fences.repeat((4 * 1024 * 1024) / fences.length)}Alpha [s].`,
      inChunks(65_536),
    ],
    ["a terminator run, 7 characters a chunk", `Alpha beta [s]${"!?".repeat(10_000)} Omega.`, inChunks(7)],
    ["headings and blank lines, one character a chunk", "# Alpha.\n\n".repeat(1_000), everyCharacter],
    [
      "CRLF lines and surrogate pairs cut in half, 3 characters a chunk",
      "Alpha 😀 [s].\r\n".repeat(1_000),
      inChunks(3),
    ],
  ] as const)(
    "splits %s in steps linear in the answer",
    async (_name, answer, chunking) => {
      const counter = { steps: 0 };
      await streamedEvents(chunking(answer), counter, budgetSources);
      // Each character is split at most 1 + REGROWTH = 5 times (a split waits for a quarter of the open text to
      // be new), at up to 16 steps a split (the splitter's stages and the cut's scan). Before, each sentence end
      // in the stream split all the open text again: 525 and 553 steps a character for the terminator run and
      // the headings.
      expect(counter.steps).toBeLessThanOrEqual(STEPS_PER_CHARACTER * answer.length);
    },
    120_000,
  );

  // One line of sentences each ending `. ` before a digit: no claim start on it is a cut (the sentence segmenter
  // and a long line's sure breaks may disagree there), so splitting it again as it grows finds nothing new.
  it.each([
    ["numbers only", `${"1932, I-90, 17%, 1,600, 1945, ".repeat(14)}[s]. `],
    ["words", "Alpha beta gamma delta [s]. 5 of them [s]. "],
  ])(
    "splits one long line of %s with a digit after each full stop about once, in 64-character pieces",
    async (_name, sentence) => {
      const answer = sentence.repeat(Math.ceil(60_000 / sentence.length));
      const counter = { steps: 0 };
      const events = await streamedEvents(inChunks(64)(answer), counter, budgetSources);
      expect(events).toEqual(await streamedEvents([answer], undefined, budgetSources));
      // The splitting's steps up to its first split that finds a sure disagreement, and none after: about one
      // answer's characters. Before, the growing line was split again at each quarter's growth: 72 steps a
      // character for numbers only.
      expect(counter.steps).toBeLessThanOrEqual(answer.length);
    },
    120_000,
  );
});
