// The adversarial request families of issue 10, each built as one `POST /v1/verified/check` body of about
// `bodyBytes` bytes. Sources stay within the default sources budget (100,000 characters); the rest of the
// body is quotes and claims, which no budget but the 4 MiB body limit bounds.

/** The default `sourcesBudget`: every family's sources fit in it, as a real request's must. */
const SOURCES_BUDGET = 100_000;
const MAX_CLAIMS = 1_000;

interface CheckBody {
  sources: { id: string; text: string }[];
  claims?: { claim: string; quote: string; source: string }[];
  answer?: string;
  /** The user's messages: answer mode reads their words, numbers and dates as context. */
  messages?: { role: "user"; content: string }[];
  mode?: "strict" | "lenient";
  check_numbers?: boolean | "source" | "row";
}

/** One family: what it attacks, and its request body at a given size. */
export interface WorstCaseFamily {
  name: string;
  attacks: string;
  /** The service's sources budget for this family, when it is not the default. */
  sourcesBudget?: number;
  /** The status the request must answer with at 4 MiB (refused early is an answer too); 200 when absent. */
  largeStatus?: number;
  /** The status at 100 KB, when it is not 200 (an answer already over the claim cap there). */
  smallStatus?: number;
  body(bodyBytes: number): CheckBody;
}

// Prose in scripts written without spaces, written for this bench: sentences of about 140 characters, so that a
// 4 MiB answer holds fewer claims than MAX_ANSWER_CLAIMS.
const CHINESE_SENTENCES = [
  "杭州一家电池制造商周二宣布，将在明年第一季度扩建位于江苏南通的工厂，新增的生产线主要用于储能设备和电动自行车电池，预计投产后年产能将比现在提高一半以上，同时还会为当地创造大约两千个就业岗位，公司希望借此进一步巩固其在国内市场的领先地位，并在三年内把产品出口到至少二十个国家和地区。",
  "该公司负责人在发布会上表示，过去三年公司的海外订单一直保持稳定增长，其中来自东南亚和中东地区的客户数量已经翻了一番，利润率也随之明显提高，因此董事会决定加快在海外设立销售中心和售后服务网点的步伐，争取在五年内让海外收入占到总收入的四成左右，同时继续控制管理费用和物流成本的增长速度。",
  "多位行业分析人士认为，今年以来原材料价格持续回落，再加上地方政府推出的税收优惠和补贴政策，共同推动了这次扩张计划，但随着越来越多的企业进入储能领域，价格竞争正在变得更加激烈，中小厂商的生存空间受到明显挤压，未来两年内整个行业很可能会出现新一轮的兼并和重组，只有掌握核心技术的企业才能在竞争中站稳脚跟。",
  "公司管理层还透露，研发团队目前正在实验室里测试一种充电速度更快、使用寿命更长的新型固态电池，初步结果显示其能量密度比现有产品高出约三成，如果后续的安全测试进展顺利，这种电池预计将在两年内正式投入批量生产并首先用于高端车型，随后再逐步推广到价格更低的家用汽车和城市公交车辆。",
];
const THAI_SENTENCES = [
  "บริษัทผลิตแบตเตอรี่แห่งหนึ่งในจังหวัดชลบุรีประกาศเมื่อวันอังคารว่าจะขยายโรงงานในปีหน้า เพื่อเพิ่มกำลังการผลิตสำหรับอุปกรณ์กักเก็บพลังงานและรถจักรยานยนต์ไฟฟ้า",
  "ผู้บริหารของบริษัทกล่าวว่ายอดสั่งซื้อจากต่างประเทศเติบโตอย่างต่อเนื่องในช่วงสามปีที่ผ่านมา โดยเฉพาะลูกค้าจากเวียดนามและมาเลเซียซึ่งเพิ่มขึ้นเกือบสองเท่า",
  "นักวิเคราะห์เชื่อว่าราคาวัตถุดิบที่ลดลงและมาตรการสนับสนุนจากรัฐบาลเป็นปัจจัยสำคัญที่ผลักดันแผนการขยายกิจการครั้งนี้ แต่การแข่งขันในอุตสาหกรรมก็รุนแรงขึ้นเช่นกัน",
  "ทีมวิจัยของบริษัทกำลังทดสอบแบตเตอรี่รุ่นใหม่ที่สามารถชาร์จได้เร็วกว่าเดิมและใช้งานได้นานขึ้น และคาดว่าจะเริ่มผลิตเพื่อจำหน่ายในเชิงพาณิชย์ได้ภายในสองปีข้างหน้า",
];

/**
 * An answer of `lines` (each a cited claim) taken in turn until the body holds `bodyBytes`, with one source of
 * `source`. Sized by the lines' bytes in the JSON body (a character of these scripts is three, a line break two).
 */
function proseAnswer(bodyBytes: number, lines: readonly string[], source: string): CheckBody {
  const lineBytes = lines.map((line) => Buffer.byteLength(JSON.stringify(line)) - 2);
  let budget = bodyBytes - 400 - Buffer.byteLength(source);
  let answer = "";
  for (let at = 0; answer === "" || budget >= (lineBytes[at % lines.length] as number); at++) {
    answer += lines[at % lines.length];
    budget -= lineBytes[at % lines.length] as number;
  }
  return { sources: [{ id: "1", text: source }], answer };
}

function sourceChars(bodyBytes: number): number {
  return Math.min(SOURCES_BUDGET, Math.floor(bodyBytes / 2));
}

function repeat(unit: string, totalChars: number): string {
  return unit.repeat(Math.max(1, Math.floor(totalChars / unit.length)));
}

// A table whose every row is labelled `label`, with `value` in each row but the last, which holds `last`.
function sameLabelTable(label: string, chars: number, value: string, last: string): string {
  const row = `| ${label} | ${value} |`;
  const rows = Math.max(2, Math.floor((chars - 40) / (row.length + 1)));
  const lines = ["| Label | Value |", "| --- | --- |"];
  for (let index = 0; index < rows - 1; index += 1) lines.push(row);
  lines.push(`| ${label} | ${last} |`);
  return lines.join("\n");
}

// A two-column table's lines: `header`, its rule, then `rowOf(1)`, `rowOf(2)`, … while they fit in `chars`.
function tableLines(header: string, chars: number, rowOf: (index: number) => string): string[] {
  const lines = [header, "| --- | --- |"];
  let length = header.length + 14;
  for (let index = 1; ; index += 1) {
    const line = rowOf(index);
    if (length + 1 + line.length > chars) return lines;
    lines.push(line);
    length += 1 + line.length;
  }
}

// A `check_numbers: "row"` body of one source `s` and one claim quoting it.
function oneRowClaim(source: string, claim: string, quote: string): CheckBody {
  return {
    sources: [{ id: "s", text: source }],
    check_numbers: "row",
    claims: [{ claim, quote, source: "s" }],
  };
}

// Up to MAX_CLAIMS claims of distinct quotes `unit×(first + i) + tail`, as many as fit in the body.
// An answer-mode body: `sources` and an answer of `unit` repeated to fill the rest of the body.
function answerBody(sources: CheckBody["sources"], bodyBytes: number, unit: string, end = ""): CheckBody {
  const used = sources.reduce((total, source) => total + source.text.length + source.id.length + 30, 100);
  return { sources, answer: `${repeat(unit, bodyBytes - used - end.length)}${end}` };
}

function distinctClaims(
  sourceLength: number,
  bodyBytes: number,
  unit: string,
  tail: string,
  first = 400,
): NonNullable<CheckBody["claims"]> {
  const claims: NonNullable<CheckBody["claims"]> = [];
  let bytes = sourceLength + 200;
  for (let index = 0; index < MAX_CLAIMS; index += 1) {
    const quote = `${unit.repeat(first + index)}${tail}`;
    bytes += quote.length + 40;
    if (bytes > bodyBytes) break;
    claims.push({ claim: "c", quote, source: "s" });
  }
  return claims;
}

export const worstCaseFamilies: WorstCaseFamily[] = [
  {
    name: "strict, one long near-miss quote",
    attacks: "`'a '×k + 'b'` against `'a '×n`: every occurrence of the first word re-walked",
    body(bodyBytes) {
      const source = repeat("a ", sourceChars(bodyBytes));
      const quote = `${repeat("a ", bodyBytes - source.length - 200)}b`;
      return { sources: [{ id: "s", text: source }], claims: [{ claim: "c", quote, source: "s" }] };
    },
  },
  {
    name: "strict, many near-miss quotes",
    attacks: "1,000-character `'a '×500 + 'b'` quotes against `'a '×n`",
    body(bodyBytes) {
      const source = repeat("a ", sourceChars(bodyBytes));
      const quote = `${"a ".repeat(500)}b`;
      const count = Math.min(MAX_CLAIMS, Math.floor((bodyBytes - source.length) / (quote.length + 40)));
      const claims = Array.from({ length: count }, () => ({ claim: "c", quote, source: "s" }));
      return { sources: [{ id: "s", text: source }], claims };
    },
  },
  {
    name: "strict, many distinct near-miss quotes",
    attacks:
      "up to 1,000 different `'a '×(400 + i) + 'b'` quotes against `'a '×n`: none repeats, so each is searched, n each",
    body(bodyBytes) {
      const source = repeat("a ", sourceChars(bodyBytes));
      return {
        sources: [{ id: "s", text: source }],
        claims: distinctClaims(source.length, bodyBytes, "a ", "b"),
      };
    },
  },
  {
    name: "strict, distinct quotes found only at the end",
    attacks:
      "up to 1,000 different `'a '×(400 + i) + 'b'` quotes against `'a '×n + 'b'`: each occurs, but only at the end",
    body(bodyBytes) {
      const source = `${repeat("a ", sourceChars(bodyBytes) - 1)}b`;
      return {
        sources: [{ id: "s", text: source }],
        claims: distinctClaims(source.length, bodyBytes, "a ", "b"),
      };
    },
  },
  {
    name: "lenient, many distinct near-miss quotes",
    attacks:
      "up to 1,000 different `'a b '×(200 + i) + 'b a'` quotes against `'a b '×n`: every token frequent, none repeats",
    body(bodyBytes) {
      const source = repeat("a b ", sourceChars(bodyBytes));
      return {
        sources: [{ id: "s", text: source }],
        mode: "lenient",
        claims: distinctClaims(source.length, bodyBytes, "a b ", "b a", 200),
      };
    },
  },
  {
    name: "lenient, periodic near-miss quotes",
    attacks: "`'a b '×4,000 + 'b a'` against `'a b '×n`: every token frequent, every anchor compared",
    body(bodyBytes) {
      const source = repeat("a b ", sourceChars(bodyBytes));
      const quote = `${"a b ".repeat(4_000)}b a`;
      const count = Math.max(
        1,
        Math.min(MAX_CLAIMS, Math.floor((bodyBytes - source.length) / (quote.length + 40))),
      );
      const claims = Array.from({ length: count }, () => ({
        claim: "c",
        quote: count === 1 ? quote.slice(-(bodyBytes - source.length - 200)) : quote,
        source: "s",
      }));
      return { sources: [{ id: "s", text: source }], mode: "lenient", claims };
    },
  },
  {
    name: "lenient, one long near-miss quote",
    attacks: "`'a '×k + 'b'` against `'a '×n` in lenient mode",
    body(bodyBytes) {
      const source = repeat("a ", sourceChars(bodyBytes));
      const quote = `${repeat("a ", bodyBytes - source.length - 200)}b`;
      return {
        sources: [{ id: "s", text: source }],
        mode: "lenient",
        claims: [{ claim: "c", quote, source: "s" }],
      };
    },
  },
  {
    name: "row, one claim naming a label at every word",
    attacks:
      "`'x '×k + '1'` where `x` labels a row and a column: every mention checked against the kept ones",
    body(bodyBytes) {
      const source = "| Label | x |\n| --- | --- |\n| x | 1 |";
      const claim = `${repeat("x ", bodyBytes - 300)}1`;
      return oneRowClaim(source, claim, "| x | 1 |");
    },
  },
  {
    name: "row, every row sharing one label",
    attacks: "a table of rows all labelled `x` and 1,000 claims naming `x` with the last row's value",
    body(bodyBytes) {
      const source = sameLabelTable("x", sourceChars(bodyBytes), "1", "2");
      const count = Math.min(MAX_CLAIMS, Math.floor((bodyBytes - source.length * 1.2) / 60));
      const claims = Array.from({ length: count }, () => ({
        claim: "x was 2",
        quote: "| x | 1 |",
        source: "s",
      }));
      return { sources: [{ id: "s", text: source }], check_numbers: "row", claims };
    },
  },
  {
    name: "row, numeric labels named by every number",
    attacks:
      "rows labelled `1`…`k`, one claim listing them all again and again: every number against every mention",
    body(bodyBytes) {
      const lines = tableLines("| Year | Value |", sourceChars(bodyBytes), (label) => `| ${label} | 7 |`);
      const labels = Array.from({ length: lines.length - 2 }, (_, index) => String(index + 1));
      const source = lines.join("\n");
      const claim = `${repeat(`${labels.join(" ")} `, bodyBytes - Math.ceil(source.length * 1.2) - 300)}7`;
      return oneRowClaim(source, claim, "| 1 | 7 |");
    },
  },
  {
    name: "source, a claim of many numbers",
    attacks: "`check_numbers: source` with a claim of numbers, all held by the source",
    body(bodyBytes) {
      const numbers = Array.from(
        { length: 1_000 },
        (_, index) => `${index},${String(index).padStart(3, "0")}.5`,
      );
      const source = repeat(`${numbers.join(" ")} `, sourceChars(bodyBytes));
      const claim = repeat(`${numbers.join(" ")} `, bodyBytes - source.length - 300);
      return {
        sources: [{ id: "s", text: source }],
        check_numbers: "source",
        claims: [{ claim, quote: "0,000.5", source: "s" }],
      };
    },
  },
  {
    name: "row, a wide header named again and again",
    attacks:
      "a header of thousands of columns named `a` and `b` in turn, and one claim `a b 9` repeated: every value against every column of its list",
    body(bodyBytes) {
      const columns = Math.floor((sourceChars(bodyBytes) - 40) / 14);
      const cells = (cell: (column: number) => string) =>
        Array.from({ length: columns }, (_, column) => cell(column)).join(" | ");
      const header = `| Label | ${cells((column) => (column % 2 === 0 ? "a" : "b"))} |`;
      const rule = `| --- | ${cells(() => "---")} |`;
      const row = `| r | ${cells((column) => (column === columns - 1 ? "9" : "7"))} |`;
      const source = [header, rule, row].join("\n");
      const claim = `r ${repeat("a b 9 ", bodyBytes - Math.ceil(source.length * 1.5) - 300)}`;
      return oneRowClaim(source, claim, row);
    },
  },
  {
    name: "row, one label in thousands of tables",
    attacks:
      "thousands of small tables each labelling a row `x`, and one claim `x x …` ending in a value only the last holds: every mention in every table",
    body(bodyBytes) {
      const tables: string[] = [];
      let length = 0;
      for (let table = 1; length < sourceChars(bodyBytes) - 60; table += 1) {
        const text = `| x | ${table} |\n| --- | --- |\n| x | ${table} |`;
        tables.push(text);
        length += text.length + 2;
      }
      const source = tables.join("\n\n");
      const claim = `${repeat("x ", bodyBytes - Math.ceil(source.length * 1.2) - 300)}${tables.length}`;
      return oneRowClaim(source, claim, "| x | 1 |");
    },
  },
  {
    name: "row, 1,000 claims naming a label of a few tables at every word",
    attacks:
      "four tables labelling a row `x` and 1,000 claims `x x …` with a value none holds: each claim's own allowance spent",
    body(bodyBytes) {
      const source = Array.from(
        { length: 4 },
        (_, table) => `| x | ${table} |\n| --- | --- |\n| x | 1 |`,
      ).join("\n\n");
      const chars = Math.floor((bodyBytes - source.length - 300) / MAX_CLAIMS) - 60;
      // Each claim differs (one `x` fewer per claim, in a cycle), so no verdict is reused for the next.
      const claims = Array.from({ length: MAX_CLAIMS }, (_, index) => ({
        claim: `${repeat("x ", chars - 2 * (index % 64))}7`,
        quote: "| x | 1 |",
        source: "s",
      }));
      return { sources: [{ id: "s", text: source }], check_numbers: "row", claims };
    },
  },
  {
    name: "row, labels nested in one another",
    attacks:
      "rows labelled `a`, `a a`, `a a a`, …, and one claim `a a …`: at each word every label ends, about the square root of the source's length",
    body(bodyBytes) {
      const lines = tableLines(
        "| Label | Value |",
        sourceChars(bodyBytes),
        (words) => `| ${"a ".repeat(words)}| ${words} |`,
      );
      const source = lines.join("\n");
      const claim = `${repeat("a ", bodyBytes - Math.ceil(source.length * 1.2) - 300)}${lines.length - 2}`;
      return oneRowClaim(source, claim, "| a | 1 |");
    },
  },
  {
    name: "answer, every word frequent in the sources",
    attacks:
      "sentences whose every content word occurs in every source sentence: no rare word to find candidates by",
    body(bodyBytes) {
      const source = repeat("Alpha beta gamma delta. ", sourceChars(bodyBytes));
      // Sentences of about 440 characters: a 4 MiB answer holds fewer claims than MAX_ANSWER_CLAIMS.
      return answerBody(
        [{ id: "s", text: source }],
        bodyBytes,
        `${"Alpha beta gamma delta epsilon ".repeat(14)}[s]. `,
      );
    },
  },
  {
    name: "answer, a marker after every word",
    attacks:
      "one sentence cut into a clause at every word, each clause searched; at 4 MiB more clauses than MAX_ANSWER_CLAIMS, refused with 400 before any is checked",
    largeStatus: 400,
    body(bodyBytes) {
      const source = repeat("alpha beta. ", sourceChars(bodyBytes));
      return answerBody([{ id: "s", text: source }], bodyBytes, "alpha [1] beta [s] ", ".");
    },
  },
  {
    name: "answer, one line with no sentence end",
    attacks: "4 MiB of words with no punctuation: one line the sentence splitter must cut",
    body(bodyBytes) {
      const source = repeat("alpha beta gamma delta ", sourceChars(bodyBytes));
      return answerBody([{ id: "s", text: source }], bodyBytes, "alpha beta gamma epsilon ");
    },
  },
  {
    name: "answer, many near-miss quotations",
    attacks: "a quotation in every sentence, each a near miss of the source, found at once per source",
    body(bodyBytes) {
      const source = repeat("a b c ", sourceChars(bodyBytes));
      let index = 0;
      const parts: string[] = [];
      let length = source.length + 200;
      while (length < bodyBytes - 400) {
        const part = `It says "${"a b c ".repeat(70 + (index % 50))}d" [s]. `;
        parts.push(part);
        length += part.length + 4;
        index += 1;
      }
      return { sources: [{ id: "s", text: source }], answer: parts.join("") };
    },
  },
  {
    name: "answer, claims of numbers only, every number frequent",
    attacks:
      "claims with no content word, looked up by their numbers, each number in every source sentence; a code and a number no source holds",
    body(bodyBytes) {
      const source = repeat("In 1932 the I-90 carried 17% of 1,600 cars. ", sourceChars(bodyBytes));
      // Claims of about 440 characters: a 4 MiB answer holds fewer claims than MAX_ANSWER_CLAIMS.
      return answerBody(
        [{ id: "s", text: source }],
        bodyBytes,
        `${"1932, I-90, 17%, 1,600, 1945, ".repeat(14)}[s]. `,
      );
    },
  },
  {
    name: "answer, 4 MiB of sources",
    attacks: "a short answer against 4 MiB of sources (the sources budget raised): indexing the sources once",
    sourcesBudget: 8 * 1024 * 1024,
    body(bodyBytes) {
      const answer = "Alpha beta gamma delta [1]. Epsilon zeta eta [2]. ".repeat(20);
      const half = Math.floor((bodyBytes - answer.length - 400) / 2);
      const sources = [
        { id: "a", text: repeat("Alpha beta gamma delta theta iota kappa lambda. ", half) },
        { id: "b", text: repeat("Epsilon zeta eta mu nu xi omicron pi rho. ", half) },
      ];
      return { sources, answer };
    },
  },
  // Issue 34 item 3: a short answer whose question (the user's message) fills the body, read a slice at a time.
  ...(
    [
      ["words", "Alpha beta gamma delta epsilon zeta eta "],
      ["numbers, dates and percentages", "1,250 in 2019-03-04 and 17% of 3.5 million "],
      ["Japanese, a full stop every ten characters", "東京都の人口は多い。"],
    ] as const
  ).map(
    ([name, unit]): WorstCaseFamily => ({
      name: `answer, 4 MiB of question text (${name})`,
      attacks: "the user's messages read for their words, numbers and dates before the claims are judged",
      body: (bodyBytes) => ({
        sources: [{ id: "s", text: "Alpha beta gamma delta." }],
        answer: "Alpha beta gamma [s].",
        // Sized by the unit's bytes in the body (a Japanese character is three).
        messages: [
          { role: "user", content: unit.repeat(Math.floor((bodyBytes - 300) / Buffer.byteLength(unit))) },
        ],
      }),
    }),
  ),
  {
    name: "answer, Japanese prose",
    attacks:
      "about 9,800 claims of 140 Han and Hiragana characters: a word per character, each looked up and scored",
    body(bodyBytes) {
      const words = "東京の会社が新しい製品を発表して大阪の市場で販売を始めたと報じられた";
      // 140 characters a sentence: a 4 MiB answer holds fewer claims than MAX_ANSWER_CLAIMS.
      return proseAnswer(bodyBytes, [`${words.repeat(5).slice(0, 140)}。 [1]\n`], `${words.repeat(50)}。`);
    },
  },
  {
    name: "answer, Chinese prose",
    attacks:
      "about 9,700 claims of 140–155 Han characters (a news report): a word per character, each looked up and scored",
    body: (bodyBytes) =>
      proseAnswer(
        bodyBytes,
        CHINESE_SENTENCES.map((sentence) => `${sentence} [1]\n`),
        CHINESE_SENTENCES.join(""),
      ),
  },
  {
    name: "answer, Thai prose",
    attacks:
      "about 8,800 claims of 155–165 Thai characters, spaces between phrases only, one claim a line: read by ICU's dictionary",
    body: (bodyBytes) =>
      proseAnswer(
        bodyBytes,
        THAI_SENTENCES.map((sentence) => `${sentence} [1]\n`),
        THAI_SENTENCES.join(" "),
      ),
  },
  // Issue 34: the answer's own splitting (sentences, lines, markers) at its worst. Each answer fills the body
  // with one short source; the refused ones hold more than MAX_ANSWER_CLAIMS claims and are counted only up
  // to the cap.
  ...(
    [
      ["no spaces", "a run with no space and no sentence end", "a", ""],
      ["no spaces, a full stop every other character", "a run of `A.` with no space", "A.", ""],
      ["a terminator run", "one word, then terminators to the end", "!", ""],
      ["abbreviations", "`U.S. e.g. Dr.` repeated: many short segments", "U.S. e.g. Dr. ", "", 400],
      ["tiny sentences", "`A.` on a line of its own, over the claim cap", "A.\n", "", 400],
      ["CJK full stops only", "`。` to the end: a sure break after each", "。", ""],
      ["4 M line breaks", "line breaks only, no claim", "\n", ""],
      ["code fences", "fenced blocks: every line hidden", "```\nx\n```\n", ""],
      ["headings", "`# A` lines: sentences that are no claim", "# A\n", ""],
      ["footnote definitions", "`[^1]: a` lines: hidden, no claim", "[^1]: a\n", ""],
      ["lines of pipes", "`|-` lines: a table the reader tries at every line", "|-\n", ""],
    ] as [string, string, string, string, number?][]
  ).map(
    ([name, attacks, unit, end, status]): WorstCaseFamily => ({
      name: `answer splitting, ${name}`,
      attacks,
      ...(status === undefined ? {} : { largeStatus: status, smallStatus: status }),
      body: (bodyBytes) => {
        const sources = [{ id: "s", text: "Alpha beta gamma. A short source." }];
        const tail = `${end} Alpha [s].`;
        // Sized by the unit's bytes in the JSON body (a line break is two, `。` three).
        const unitBytes = Buffer.byteLength(JSON.stringify(unit)) - 2;
        const count = Math.floor((bodyBytes - 200 - Buffer.byteLength(JSON.stringify(tail))) / unitBytes);
        return { sources, answer: `${unit.repeat(Math.max(1, count))}${tail}` };
      },
    }),
  ),
];
