import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { foldWord, forEachWord, PairWords, splitWords, UNSPACED_STEPS_PER_CHAR, wordSteps } from "./words.js";

describe("splitWords", () => {
  it.each([
    {
      name: "English words, numbers with decimal points and thousands separators",
      text: "Revenue was $1,200.50 (up 4.2%).",
      words: ["revenue", "was", "1,200.50", "up", "4.2"],
    },
    {
      name: "apostrophes stay inside a word",
      text: "Acme's CEO doesn't",
      words: ["acme's", "ceo", "doesn't"],
    },
    { name: "a hyphen splits", text: "INV-0042", words: ["inv", "0042"] },
    { name: "letters and digits together", text: "Q3 2024", words: ["q3", "2024"] },
    { name: "German: umlauts and ß fold", text: "Größe Über Straße", words: ["grosse", "uber", "strasse"] },
    { name: "full-width forms fold", text: "Ｑ３ ＡＢＣ", words: ["q3", "abc"] },
    { name: "French accents fold", text: "Amélie Durand, Québec", words: ["amelie", "durand", "quebec"] },
    { name: "Greek and Cyrillic", text: "Ελλάδα Москва", words: ["ελλαδα", "москва"] },
    {
      name: "Japanese: Han and Katakana runs become overlapping pairs, hiragana words stay whole",
      text: "従業員数は350人です。",
      words: ["従業", "業員", "員数", "は", "350", "人", "て\u3099す"],
    },
    {
      name: "Japanese: a Hiragana run becomes overlapping pairs too; a word of Han and Hiragana is its two runs",
      text: "食べている",
      words: ["食", foldWord("べて"), "てい", "いる"],
    },
    {
      name: "Japanese: a long vowel mark continues a Hiragana run, a middle dot ends a Katakana run",
      text: "すごーい サクラ・ホールディングス",
      words: [
        "すこ\u3099",
        foldWord("ごー"),
        "ーい",
        "サク",
        "クラ",
        "ホー",
        "ール",
        "ルテ\u3099",
        foldWord("ディ"),
        "ィン",
        "ンク\u3099",
        foldWord("グス"),
      ],
    },
    {
      name: "Chinese: a Han run is read as pairs, Latin letters and numbers beside it as spaced words",
      text: "华为于2019年发布Mate手机。",
      words: ["华为", "为于", "2019", "年发", "发布", "mate", "手机"],
    },
    {
      name: "Thai: each run through the dictionary segmenter, Latin letters beside it as a word of their own",
      text: "บริษัทผลิตแบตเตอรี่ abcภาษา",
      words: ["บริษัท", "ผลิต", "แบตเตอรี่", "abc", "ภาษา"],
    },
    { name: "no words", text: " — … !? ", words: [] },
  ])("$name", ({ text, words }) => {
    expect(splitWords(text).map((word) => word.word)).toEqual(words);
  });

  it("reports offsets into the original text", () => {
    expect(splitWords("  Größe: 12,5 m")).toEqual([
      { word: "grosse", start: 2, end: 7 },
      { word: "12,5", start: 9, end: 13 },
      { word: "m", start: 14, end: 15 },
    ]);
  });

  it("offsets slice back to the word before folding, in any script", () => {
    const alphabet = [..."abcXYZ09 äöüß éè 東京都 サクラ は の 、。.,'-|\n"];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(text, (sample) => {
        for (const word of splitWords(sample)) {
          expect(word.end).toBeGreaterThan(word.start);
          expect(foldWord(sample.slice(word.start, word.end))).toBe(word.word);
        }
      }),
    );
  });
});

describe("foldWord", () => {
  it.each([
    { name: "case", word: "REVENUE", folded: "revenue" },
    { name: "diacritics", word: "Köln", folded: "koln" },
    { name: "sharp s", word: "Fuß", folded: "fuss" },
    { name: "capital sharp s", word: "FUẞ", folded: "fuss" },
    { name: "typographic apostrophe", word: "Acme’s", folded: "acme's" },
    { name: "ligature", word: "ﬁnance", folded: "finance" },
  ])("$name", ({ word, folded }) => {
    expect(foldWord(word)).toBe(folded);
  });
});

// The fold as it reads every word (before its fast path for words that fold to themselves): the reference.
const foldEveryWord = (word: string): string =>
  word
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/’/g, "'");

describe("foldWord: a word whose characters fold to themselves is returned as it is, with the same result", () => {
  it("every CJK Unified Ideograph (U+4E00–U+9FFF) and every character of ASCII and kana folds as before", () => {
    const ranges: [number, number][] = [
      [0, 0x80],
      [0x3040, 0x3100],
      [0x4e00, 0xa000],
    ];
    for (const [first, end] of ranges)
      for (let code = first; code < end; code++) {
        const character = String.fromCharCode(code);
        expect(foldWord(character)).toBe(foldEveryWord(character));
      }
  });

  it("random words of CJK, kana, Latin, compatibility forms and combining marks fold as before (fixed seed)", () => {
    const character = fc.constantFrom(
      ..."東京会社製品発表大阪市場販売始報",
      ..."のがしてをでとたらればぱゔゝゞ゛゜ゟ",
      ..."カガナパヴヷーヽヾ",
      ..."abzAZ09'.-_ ",
      ..."ÉéßẞÖöİıΣσςЁё’",
      ..."ＡＢ３ｶﾞ㍻①ﬁ豈",
      "\u0301",
      "\u0308",
      "\u3099",
      "\u309a",
      "\ud840\udc0b",
    );
    fc.assert(
      fc.property(fc.array(character, { minLength: 1, maxLength: 12 }), (characters) => {
        const word = characters.join("");
        expect(foldWord(word)).toBe(foldEveryWord(word));
      }),
      { seed: 34, numRuns: 2_000 },
    );
  });
});

describe("foldWord: Thai words fold as before, without normalising", () => {
  const thai = Array.from({ length: 0x80 }, (_, offset) => String.fromCharCode(0x0e00 + offset));

  it("every Thai character, and every pair of them, folds as before", () => {
    for (const first of thai) {
      expect(foldWord(first)).toBe(foldEveryWord(first));
      for (const second of thai) expect(foldWord(first + second)).toBe(foldEveryWord(first + second));
    }
  });

  it("random Thai words, marks in any order among Latin, kana and ideographs, fold as before (fixed seed)", () => {
    const character = fc.constantFrom(
      ...thai,
      ..."กขคำาเแ",
      "\u0e38\u0e48",
      "\u0e48\u0e38",
      ..."aZ東が\u0301\u3099",
    );
    fc.assert(
      fc.property(fc.array(character, { minLength: 1, maxLength: 12 }), (characters) => {
        const word = characters.join("");
        expect(foldWord(word)).toBe(foldEveryWord(word));
      }),
      { seed: 34, numRuns: 5_000 },
    );
  });
});

describe("forEachWord: Han and Kana are read without the dictionary segmenter", () => {
  // The segmenter's calls, with the text each reads (the words read here call no other segmenter).
  const segment = vi.spyOn(Intl.Segmenter.prototype, "segment");
  const segmented = (): string[] => segment.mock.calls.map(([text]) => text);

  it("Japanese and Chinese prose make no segmenter call; a Thai run is the only text the segmenter reads", () => {
    segment.mockClear();
    splitWords(
      "東京の会社が新しい製品を発表して大阪の市場で販売を始めたと報じられた。杭州一家电池制造商周二宣布。",
    );
    expect(segmented()).toEqual([]);
    splitWords("Acme 東京 ประกาศผลิตภัณฑ์ใหม่ 2024");
    expect(segmented()).toEqual(["ประกาศผลิตภัณฑ์ใหม่"]);
  });

  // Adversarial texts for the reader: long runs, alternating scripts, marks piled on one character, surrogate
  // pairs and lone surrogates.
  const families: [string, (size: number) => string][] = [
    ["one Han run", (size) => "漢".repeat(size)],
    ["Han and Hiragana alternating", (size) => "漢か".repeat(size / 2)],
    ["Han, Katakana, Hiragana, Latin and digits alternating", (size) => "東カかa1".repeat(size / 5)],
    ["a mark after every ideograph", (size) => "漢\u0301".repeat(size / 2)],
    ["marks piled on one ideograph", (size) => `漢${"\u0301".repeat(size - 1)}`],
    ["ideographs outside the BMP", (size) => "\u{20000}".repeat(size / 2)],
    ["lone surrogates between ideographs", (size) => "\ud840漢\udc00".repeat(size / 3)],
    ["long vowel marks after one ideograph", (size) => `漢${"ー".repeat(size - 1)}`],
    ["Hiragana and long vowel marks", (size) => "かー".repeat(size / 2)],
  ];

  it.each(families)(
    "%s: words and the characters they cover stay within 2 per character, UNSPACED_STEPS_PER_CHAR bounds them",
    (_, make) => {
      for (const size of [600, 1_200, 2_400, 4_800]) {
        const text = make(size);
        let words = 0;
        let covered = 0;
        forEachWord(text, (_word, start, end) => {
          words++;
          covered += end - start;
        });
        expect(words).toBeLessThanOrEqual(text.length);
        expect(covered).toBeLessThanOrEqual(2 * text.length);
        expect(text.length + words + covered).toBeLessThanOrEqual(wordSteps(text));
      }
    },
  );
});

describe("forEachWord: pieces cut before a space or a line break read as the whole", () => {
  it("gives the same words and offsets in any script, however the text is cut there (fixed seed)", () => {
    const parts = [..."東京都 サクラ している 食べる 华为 ภาษาไทย ประกาศ abc Q3 1,200 é\u0301 、。.\n"];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...parts), { maxLength: 80 }),
        fc.array(fc.nat()),
        (characters, cuts) => {
          const text = characters.join("");
          const whole: string[] = [];
          forEachWord(text, (word, start, end) => whole.push(`${word}@${start}-${end}`));
          const spaces = [...text.matchAll(/[ \n]/g)].map((match) => match.index);
          const at = [...new Set(cuts.map((cut) => spaces[cut % Math.max(1, spaces.length)] ?? 0))].sort(
            (a, b) => a - b,
          );
          const pieced: string[] = [];
          for (const [index, from] of [0, ...at].entries()) {
            const to = at[index] ?? text.length;
            if (to <= from) continue;
            forEachWord(text.slice(from, to), (word, start, end) =>
              pieced.push(`${word}@${from + start}-${from + end}`),
            );
          }
          expect(pieced).toEqual(whole);
        },
      ),
      { seed: 34, numRuns: 500 },
    );
  });
});

describe("wordSteps", () => {
  it("counts a step a character of spaced text, UNSPACED_STEPS_PER_CHAR (16) of text in a script without spaces", () => {
    expect(UNSPACED_STEPS_PER_CHAR).toBe(16);
    expect(wordSteps("Alpha beta gamma.")).toBe(17);
    expect(wordSteps("Tokyo 東京の会社")).toBe(16 * 11);
  });
});

describe("PairWords", () => {
  it("gives each pair of two units the fold of its slice, a pair met again too", () => {
    const pairs = new PairWords();
    const text = Array.from({ length: 150 }, (_, index) => String.fromCharCode(0x4e00 + index)).join("");
    const kana = "ｶﾞＡｂカ\u3099ﾟ";
    for (let round = 0; round < 2; round++) {
      for (let first = 0; first + 1 < text.length; first++) {
        for (let second = 0; second < text.length; second += 7) {
          const pair = `${text[first]}${text[second]}`;
          expect(pairs.word(pair, 0)).toBe(pair);
        }
      }
      for (let at = 0; at + 1 < kana.length; at++)
        expect(pairs.word(kana, at)).toBe(foldWord(kana.slice(at, at + 2)));
    }
  });

  it("gives the fold of its slice for more pairs than the cache has slots, so pairs share slots", () => {
    const pairs = new PairWords();
    const han = Array.from({ length: 300 }, (_, index) => String.fromCharCode(0x4e00 + index));
    for (let round = 0; round < 2; round++)
      for (const first of han)
        for (const second of han) expect(pairs.word(`${first}${second}`, 0)).toBe(`${first}${second}`);
  });

  it("leaves forEachWord's words and offsets as they are without it (fixed seed)", () => {
    const character = fc.constantFrom(
      ..."東京都の会社サクラはカ\u3099ﾞｶﾟして、。 abc Ｑ３ ไทย ภาษา 12 \n",
      "\u{20000}",
      "\u{20001}",
      "\ud800",
    );
    const pairs = new PairWords();
    fc.assert(
      fc.property(fc.array(character, { maxLength: 40 }), (characters) => {
        const text = characters.join("");
        const plain: string[] = [];
        const paired: string[] = [];
        forEachWord(text, (word, start, end) => plain.push(`${word}@${start}-${end}`));
        forEachWord(text, (word, start, end) => paired.push(`${word}@${start}-${end}`), undefined, pairs);
        expect(paired).toEqual(plain);
      }),
      { seed: 34, numRuns: 2_000 },
    );
  });
});
