// Answers in scripts written without spaces, checked against sources in the same script: claims made of a
// source's words are kept and cited where those words are; a Han or Katakana word no source holds is never
// found; Hiragana particles and endings are never missing words. Sources and sentences are written for these
// tests (a company's news in Japanese, Chinese and Thai).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Source } from "../types.js";
import { type AnswerResult, checkAnswer } from "./check-answer.js";

// Each source's sentences cut into its clauses (at `、`, `，` or a space), so a claim can be any clauses of one.
const CLAUSES: Record<string, string[][]> = {
  ja: [
    ["株式会社サクラは二〇一〇年に東京で設立された"],
    ["同社は昨年", "新型の電気自動車を発表し", "大阪と名古屋で販売を始めた"],
    ["社長の田中氏は", "海外の市場でも売上高が伸びていると述べた"],
    ["工場では毎日約五百台の車が組み立てられている"],
    ["来年には北海道に第二工場を建設する予定だという"],
  ],
  zh: [
    ["杭州一家电池制造商周二宣布", "将在明年第一季度扩建位于江苏南通的工厂"],
    ["新增的生产线主要用于储能设备和电动自行车电池", "预计投产后年产能将提高一半以上"],
    ["该公司负责人表示", "过去三年海外订单一直保持稳定增长", "东南亚客户数量已经翻了一番"],
  ],
  th: [
    ["บริษัทผลิตแบตเตอรี่แห่งหนึ่งในจังหวัดชลบุรีประกาศว่าจะขยายโรงงานในปีหน้า", "เพื่อเพิ่มกำลังการผลิต"],
    ["ผู้บริหารกล่าวว่ายอดสั่งซื้อจากต่างประเทศเติบโตอย่างต่อเนื่อง", "โดยเฉพาะลูกค้าจากเวียดนาม"],
  ],
};
const SEPARATOR: Record<string, string> = { ja: "、", zh: "，", th: " " };
const END: Record<string, string> = { ja: "。", zh: "。", th: "" };
const LANGUAGES = Object.keys(CLAUSES);

const SOURCES: Source[] = LANGUAGES.map((id) => ({
  id,
  text: (CLAUSES[id] as string[][])
    .map((sentence) => `${sentence.join(SEPARATOR[id])}${END[id] === "" ? " " : END[id]}`)
    .join(""),
}));

// A claim: one sentence's clauses, some left out, in their order, cited at its language's source.
const claimOf = fc.constantFrom(...LANGUAGES).chain((language) =>
  fc
    .constantFrom(...(CLAUSES[language] as string[][]))
    .chain((sentence) => fc.subarray(sentence, { minLength: 1 }))
    .map((clauses) => ({ language, clauses })),
);
const written = ({ language, clauses }: { language: string; clauses: string[] }): string =>
  `${clauses.join(SEPARATOR[language])} [${language}]${END[language]}`;

// Han and Katakana characters that no source above holds.
const NOWHERE = [..."鯨鶴亀竜虎豹熊猿狼鷹雀鴨蛙蝶蟹蛸烏賊ヴヂヅヮヰヱ"];
for (const character of NOWHERE) {
  for (const source of SOURCES)
    if (source.text.includes(character)) throw new Error(`${character} in a source`);
}

const keptWhole = (result: AnswerResult): boolean =>
  result.unsupported.length === 0 && result.partial.length === 0;

describe("answers without spaces: claims made of a source's words", () => {
  it("are kept whole and cited at the source that holds them, in Japanese, Chinese and Thai (fixed seed)", () => {
    fc.assert(
      fc.property(fc.array(claimOf, { minLength: 1, maxLength: 4 }), (claims) => {
        const answer = claims.map(written).join("\n");
        const result = checkAnswer(SOURCES, answer, {});
        expect(keptWhole(result)).toBe(true);
        expect(result.citations.map((citation) => citation.source)).toEqual(
          claims.map((claim) => claim.language),
        );
        for (const citation of result.citations) {
          const source = SOURCES.find((each) => each.id === citation.source) as Source;
          expect(source.text.slice(...citation.range)).toBe(citation.quote);
        }
      }),
      { seed: 34, numRuns: 300 },
    );
  });

  it("are cited at no other source: a claim cited at another language's source is dropped (fixed seed)", () => {
    fc.assert(
      fc.property(claimOf, fc.constantFrom(...LANGUAGES), (claim, other) => {
        fc.pre(other !== claim.language);
        const answer = `${claim.clauses.join(SEPARATOR[claim.language])} [${other}]${END[claim.language]}`;
        const result = checkAnswer(SOURCES, answer, {});
        expect(result.unsupported.length).toBe(1);
      }),
      { seed: 34, numRuns: 200 },
    );
  });
});

describe("answers without spaces: a Han or Katakana word no source holds", () => {
  it("is never found: the claim is dropped or names a missing term inside the word (fixed seed)", () => {
    const word = fc
      .array(fc.constantFrom(...NOWHERE), { minLength: 1, maxLength: 4 })
      .map((characters) => characters.join(""));
    fc.assert(
      fc.property(
        claimOf.filter((claim) => claim.language !== "th"),
        word,
        fc.nat(),
        (claim, inserted, at) => {
          // The word goes in at a clause's start, before a separator or at the claim's end.
          const cut = at % (claim.clauses.length + 1);
          const clauses = [...claim.clauses];
          const joined = clauses.join(SEPARATOR[claim.language]);
          const offset =
            cut === clauses.length
              ? joined.length
              : clauses.slice(0, cut).reduce((total, clause) => total + clause.length + 1, 0);
          const answer = `${joined.slice(0, offset)}${inserted}${joined.slice(offset)} [${claim.language}]。`;
          const result = checkAnswer(SOURCES, answer, {});
          if (result.unsupported.length > 0) return;
          const inside = result.partial.filter(
            ({ answerRange: [start, end] }) => start < offset + inserted.length && end > offset,
          );
          expect(inside.length).toBeGreaterThan(0);
        },
      ),
      { seed: 34, numRuns: 300 },
    );
  });
});

describe("answers without spaces: particles and endings written in Hiragana", () => {
  // Grammatical words in Hiragana, none of them in a source as written here.
  const ENDINGS = ["によると", "られる", "ていた", "でした", "ということだ", "だそうです", "とのことです"];

  it("are never named as missing: a claim of a source's Han words with other endings names no Hiragana term (fixed seed)", () => {
    const japanese = CLAUSES.ja as string[][];
    // The Han and Katakana runs of the Japanese source, each a word of the claim.
    const runs = japanese
      .flat()
      .flatMap((clause) => clause.match(/[\p{sc=Han}\p{sc=Katakana}ー]{2,}/gu) ?? []);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...runs), fc.constantFrom(...ENDINGS)), {
          minLength: 1,
          maxLength: 3,
        }),
        (pairs) => {
          const answer = `${pairs.map(([run, ending]) => `${run}${ending}`).join("、")} [ja]。`;
          const result = checkAnswer(SOURCES, answer, {});
          const hiragana = result.partial.filter(({ term }) => /^\p{sc=Hiragana}+$/u.test(term));
          expect(hiragana).toEqual([]);
        },
      ),
      { seed: 34, numRuns: 200 },
    );
  });
});
