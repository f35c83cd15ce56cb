import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { StepCounter } from "../../step-counter.js";
import { forEachWord, UNSPACED_STEPS_PER_CHAR } from "../../text/index.js";
import { otherWrittenForms } from "../abbreviations.js";
import { splitAnswerClaims } from "../answer-claims.js";
import { initialsKeyOfWord } from "../equivalences.js";
import { withoutFraming } from "../framing.js";
import { addWantedInitials, isCaselessLetters, isEntityAt } from "./entities.js";

// The dictionary segmenter's calls, with the characters each reads (a spy on `Intl.Segmenter`): the words of a
// clause in a script without spaces are read only when the clause may hold a word in capitals.
const segment = vi.spyOn(Intl.Segmenter.prototype, "segment");

const wordCalls = (): string[] =>
  segment.mock.calls
    .filter(
      (_, call) =>
        (segment.mock.contexts[call] as Intl.Segmenter | undefined)?.resolvedOptions().granularity === "word",
    )
    .map(([text]) => text);
const segmented = {
  get calls(): number {
    return wordCalls().length;
  },
  get chars(): number {
    return wordCalls().reduce((total, text) => total + text.length, 0);
  },
};

function wantedOf(answer: string): { wanted: Set<string>; steps: number } {
  const claims = splitAnswerClaims(answer);
  segment.mockClear();
  const wanted = new Set<string>();
  const counter: StepCounter = { steps: 0 };
  for (const claim of claims) addWantedInitials(wanted, claim, counter);
  return { wanted, steps: counter.steps };
}

describe("addWantedInitials: a clause is read by words only when it may hold a word in capitals", () => {
  const japanese = "東京の会社が新しい製品を発表して大阪の市場で販売を始めたと報じられた。 [1]\n";

  it("reads no word of Japanese or Chinese prose, nor of Latin text with no capital pair, and counts a step a character", () => {
    // Chinese prose writes its commas full-width (`，`, U+FF0C), among the forms that hold no capital.
    const chinese = "该公司负责人表示，过去三年海外订单一直保持稳定增长（约３成）。 [1]\n";
    const answer = `${japanese.repeat(3)}${chinese}Die Größe der Stadt wächst, sagt Müller [1].\n`;
    const { wanted, steps } = wantedOf(answer);
    expect(segmented.calls).toBe(0);
    expect(wanted.size).toBe(0);
    const clauses = splitAnswerClaims(answer).flatMap((claim) => claim.clauses);
    expect(steps).toBe(clauses.reduce((total, clause) => total + clause.masked.length, 0));
  });

  it("reads a clause with a word in capitals once, an unspaced one at UNSPACED_STEPS_PER_CHAR steps a character", () => {
    const thai = "ประกาศผลิตภัณฑ์ใหม่";
    const answer = `${japanese}NASAが新しい製品を発表した [1]。\nThe ÉU and U.S. agreed [1].\nNASA ${thai} [1]\n`;
    const { wanted, steps } = wantedOf(answer);
    expect([...wanted].sort()).toEqual(["=initials:nasa", "=initials:us", "=initials:eu"].sort());
    const clauses = splitAnswerClaims(answer).flatMap((claim) => claim.clauses);
    const read = clauses.filter((clause) => /NASA|U\.S/.test(clause.masked));
    const [japaneseRead, spaced, thaiRead] = read.map((clause) => clause.masked.length) as [
      number,
      number,
      number,
    ];
    // The Japanese clause with NASA is read by pairs of characters, the Thai one's run through the segmenter once,
    // the English one through the spaced reader.
    expect(segmented.calls).toBe(1);
    expect(segmented.chars).toBe(thai.length);
    const scanned = clauses.reduce((total, clause) => total + clause.masked.length, 0);
    expect(steps).toBe(scanned + UNSPACED_STEPS_PER_CHAR * (japaneseRead + thaiRead) + spaced);
  });
});

describe("addWantedInitials: the same keys as reading every clause by words", () => {
  it("holds for random text of capitals, dots, Latin, Greek, Cyrillic, kana and Han (fixed seed)", () => {
    const piece = fc.constantFrom(
      "NASA",
      "U.S.",
      "Nasa",
      "É",
      "ÉU",
      "ΑΒΓ",
      "СССР",
      "Ǆ",
      "ǅ",
      "ＡＢ",
      "Ａ",
      "ｂ",
      "，",
      "（３）",
      "A",
      ".",
      " ",
      "a",
      "é",
      "東京",
      "ガス",
      "が",
      "。",
      " [1]",
      ". ",
      "\n",
      "Additionally, ",
      "**Note:** ",
      "x1",
      "Ⅻ",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const answer = pieces.join("");
        const expected = new Set<string>();
        for (const claim of splitAnswerClaims(answer))
          for (const clause of claim.clauses) {
            const text = withoutFraming(clause.masked);
            forEachWord(text, (word, start, end) => {
              const key = initialsKeyOfWord(text.slice(start, end), word);
              if (key !== null) expected.add(key);
            });
          }
        expect(wantedOf(answer).wanted).toEqual(expected);
      }),
      { seed: 34, numRuns: 500 },
    );
  });
});

describe("isEntityAt: words of Han, kana and Thai are no names, as the patterns read them", () => {
  // The rule as its patterns state it (entities.ts): a code, or three or more letters in capitals or capitalised.
  const reference = (written: string, sentenceStart: boolean): boolean =>
    /^\p{L}[\p{L}\p{M}]*\p{N}/u.test(written) ||
    (written.length >= 3 && (/^\p{Lu}{2,}$/u.test(written) || (!sentenceStart && /^\p{Lu}/u.test(written))));

  it("every character of U+0E00–U+0E7F, U+3040–U+30FF and U+4E00–U+9FFF, and random words of them with digits and capitals (fixed seed)", () => {
    const ranges: [number, number][] = [
      [0x0e00, 0x0e80],
      [0x3040, 0x3100],
      [0x4e00, 0xa000],
    ];
    for (const [first, end] of ranges)
      for (let code = first; code < end; code++) {
        const word = String.fromCharCode(code).repeat(3);
        for (const sentenceStart of [false, true])
          expect(isEntityAt(word, 0, 3, sentenceStart)).toBe(reference(word, sentenceStart));
      }
    const character = fc.constantFrom(..."東京〇々カが゛ー・กำ่๑", ..."1AZa", "\u0e00", "\u0e4f", "\u0e50");
    fc.assert(
      fc.property(
        fc.array(character, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (characters, sentenceStart) => {
          const word = characters.join("");
          const text = `(${word})`;
          expect(isEntityAt(text, 1, 1 + word.length, sentenceStart)).toBe(reference(word, sentenceStart));
        },
      ),
      { seed: 34, numRuns: 3_000 },
    );
  });
});

describe("isCaselessLetters: a word that starts with kana, a CJK ideograph or Thai has no other written form", () => {
  it("holds for the word read from the start of every such character, alone and before Latin letters and digits", () => {
    // What `foundInOtherForms` skips on this test (a clause's word as written): the forms are of Latin words.
    let words = 0;
    for (const [first, end] of [
      [0x0e01, 0x0e50],
      [0x3040, 0x3100],
      [0x4e00, 0xa000],
    ] as const)
      for (let code = first; code < end; code++) {
        for (const written of [String.fromCharCode(code), `${String.fromCharCode(code)}q3`]) {
          expect(isCaselessLetters(written, 0, 1)).toBe(true);
          forEachWord(written, (word, start) => {
            if (start > 0) return;
            words++;
            expect(otherWrittenForms(word)).toEqual([]);
          });
        }
      }
    expect(words).toBeGreaterThan(2 * (0xa000 - 0x4e00));
  });
});
