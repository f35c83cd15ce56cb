/**
 * End to end: the real `verified serve` on the local model, the playground page in Debian's headless
 * Chromium (driven by playwright-core; browser downloads are not possible here, so `.ci/run` installs the
 * `chromium` package). Screenshots go to test-results/playground/ (ignored by git), the README's
 * copy of the Ask view as readme-ask.png.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest, type Server } from "node:http";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page, type Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const chromiumPath = "/usr/bin/chromium";
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
// Another build of the service can be pointed at with this variable; the default is the package's own.
const serverEntry = resolve(repoRoot, process.env.VERIFIED_E2E_SERVER_ENTRY ?? "dist/cli/main.js");
const screenshots = join(repoRoot, "test-results", "playground");
const apiKey = "sk-playground-e2e";

const haveChromium = existsSync(chromiumPath);
const runSuite = haveChromium || process.env.CI !== undefined;
if (!runSuite) {
  console.warn(
    `playground e2e skipped: ${chromiumPath} is missing. Install it with ` +
      "`apt-get install -y --no-install-recommends chromium` (CI installs it and always runs this suite).",
  );
}

interface Citation {
  claim: string;
  quote: string;
  source: string;
  range: [number, number];
}

interface ExtractField {
  value: string | null;
  source?: string;
  range?: [number, number];
  grounded: boolean;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`verified serve exited with code ${child.exitCode} before it served:\n${output()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`GET ${baseUrl}/healthz did not answer 200 within 15 s:\n${output()}`);
}

function isPost(path: string) {
  return (response: Response) =>
    response.request().method() === "POST" && new URL(response.url()).pathname === path;
}

/** Characters before `mark` inside its <pre>: where the page put the highlight in the source text. */
function markOffset(page: Page): Promise<number> {
  return page.locator("#sources-viewer mark.quote-highlight").evaluate((mark) => {
    let offset = 0;
    for (const node of Array.from(mark.parentElement?.childNodes ?? [])) {
      if (node === mark) return offset;
      offset += node.textContent?.length ?? 0;
    }
    return -1;
  });
}

/**
 * A reverse proxy on 127.0.0.1 that serves the service under `/verified/`, as a deployment behind a path
 * prefix would; anything outside the prefix is a 404, so a call that ignores the prefix fails.
 */
function startPrefixProxy(target: string): Promise<{ server: Server; url: string }> {
  const prefix = "/verified";
  const server = createHttpServer((incoming, outgoing) => {
    const path = incoming.url ?? "/";
    if (!path.startsWith(`${prefix}/`)) {
      outgoing.writeHead(404, { "content-type": "text/plain" }).end(`not under ${prefix}/`);
      return;
    }
    const forwarded = httpRequest(
      `${target}${path.slice(prefix.length)}`,
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}${prefix}/` });
    });
  });
}

describe.runIf(runSuite)("playground in headless Chromium", () => {
  let server: ChildProcess;
  let serverOutput = "";
  let baseUrl = "";
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const requestedUrls: string[] = [];
  const pageProblems: string[] = [];

  /** Opens the Check tab with the sample's sources loaded (the sample's own check answered). */
  async function openCheck(): Promise<void> {
    await page.goto(`${baseUrl}/`);
    await page.click("#tab-check");
    await Promise.all([page.waitForResponse(isPost("/v1/verified/check")), page.click("#check-sample")]);
  }

  /** Types `answer` in the Check tab and checks it: the check's response. */
  async function checkAnswer(answer: string): Promise<Response> {
    await page.fill("#check-answer", answer);
    const [response] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified/check")),
      page.click("#check-submit"),
    ]);
    return response;
  }

  beforeAll(async () => {
    if (!haveChromium)
      throw new Error(`${chromiumPath} is missing; CI must install Debian's chromium package.`);
    if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing; run npm run build first.`);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    // No gateway and no key list: the local model only, with any bearer key or none.
    const environment = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("VERIFIED_")),
    );
    server = spawn(process.execPath, [serverEntry, "serve", "--host", "127.0.0.1", "--port", String(port)], {
      cwd: repoRoot,
      env: environment,
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (chunk: Buffer) => {
      serverOutput += chunk.toString();
    });
    server.stderr?.on("data", (chunk: Buffer) => {
      serverOutput += chunk.toString();
    });
    const launching = chromium.launch({
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    await waitForHealth(baseUrl, server, () => serverOutput);
    browser = await launching;
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: "light" });
    page = await context.newPage();
    page.on("request", (request) => requestedUrls.push(request.url()));
    page.on("pageerror", (error) => pageProblems.push(`uncaught: ${error.message}`));
    page.on("console", (message) => {
      // Chromium logs every non-2xx fetch; the error tests cause those on purpose.
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
        pageProblems.push(message.text());
      }
    });
    mkdirSync(screenshots, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (server !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      const timer = setTimeout(() => server.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
    }
  });

  it("serves the page at / and runs the sample Ask; a chip lights up its quote at its exact range", async () => {
    await page.goto(`${baseUrl}/`);
    await expect(page.title()).resolves.toBe("verified · playground");
    await expect(page.locator("#model").inputValue()).resolves.toBe("local");

    // A first run: no key typed, and the open service answers the local model without one.
    const [keyless] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      page.click("#ask-sample"),
    ]);
    expect(keyless.status()).toBe(200);
    expect(keyless.request().headers().authorization).toBeUndefined();
    await page.locator(".answer .chip").first().waitFor();
    await expect(page.locator("#ask-error").isHidden()).resolves.toBe(true);
    // One quiet line says what "grounded" does and does not mean.
    await expect(page.locator("#ask-result .grounded-note").textContent()).resolves.toBe(
      "Grounded means each claim quotes a source; it does not mean the question was answered.",
    );

    // A typed key is sent as a bearer key.
    await page.fill("#api-key", apiKey);
    const [response] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      page.click("#ask-sample"),
    ]);
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe(`Bearer ${apiKey}`);
    const result = (await response.json()) as { citations: Citation[]; coverage: number };
    expect(result.citations.length).toBeGreaterThan(0);
    await page.locator(".answer .chip").first().waitFor();
    await expect(page.locator(".chip").count()).resolves.toBe(result.citations.length);

    const firstChip = page.locator(".answer .chip").first();
    const index = Number(await firstChip.getAttribute("data-citation"));
    const citation = result.citations[index] as Citation;
    await firstChip.hover();
    const mark = page.locator("#sources-viewer mark.quote-highlight");
    await expect.poll(() => mark.textContent()).toBe(citation.quote);
    await expect(markOffset(page)).resolves.toBe(citation.range[0]);
    await expect(mark.isVisible()).resolves.toBe(true);
    await expect(page.locator("#ask-result .coverage-figure").textContent()).resolves.toContain(
      `${Math.round(result.coverage * 100)}%`,
    );

    // Keyboard: focusing the last chip moves the highlight to its quote.
    const lastChip = page.locator(".answer .chip").last();
    const lastCitation = result.citations[Number(await lastChip.getAttribute("data-citation"))] as Citation;
    await lastChip.focus();
    await expect.poll(() => mark.textContent()).toBe(lastCitation.quote);
    await firstChip.hover();

    // The key lives in this tab's session storage only.
    await expect(page.evaluate(() => sessionStorage.getItem("verified.apiKey"))).resolves.toBe(apiKey);
    await expect(page.evaluate(() => localStorage.length)).resolves.toBe(0);

    await page.mouse.move(0, 0);
    await firstChip.focus();
    await page.screenshot({ path: join(screenshots, "ask.png") });
    // The README's copy hides the line with the random result id and the timing, so it only changes when
    // the page does. (Through the CSSOM: the page's CSP refuses injected style sheets.)
    const hideMeta = (visibility: string) =>
      page.evaluate((value) => {
        for (const meta of Array.from(document.querySelectorAll<HTMLElement>(".meta")))
          meta.style.visibility = value;
      }, visibility);
    await hideMeta("hidden");
    const image = await page.screenshot();
    await hideMeta("");
    // Written beside the other screenshots, never over the committed docs/playground-ask.png: copy it there
    // by hand when the page changes (docs/development.md).
    writeFileSync(join(screenshots, "readme-ask.png"), image);
  });

  it("runs an Extract and highlights each found value in its source", async () => {
    await page.focus("#tab-ask");
    await page.keyboard.press("ArrowRight");
    await expect(page.locator("#tab-extract").getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.locator("#panel-extract").isVisible()).resolves.toBe(true);

    const [response] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified/extract")),
      page.click("#extract-sample"),
    ]);
    expect(response.status()).toBe(200);
    const result = (await response.json()) as { fields: Record<string, ExtractField> };
    const names = Object.keys(result.fields);
    await page.locator(".fields-table").waitFor();
    await expect(page.locator(".fields-table tbody tr").count()).resolves.toBe(names.length);
    await expect(page.locator(".fields-table tbody th").allTextContents()).resolves.toEqual(names);

    const found = Object.entries(result.fields).filter(([, field]) => field.value !== null);
    const missing = names.length - found.length;
    expect(found.length).toBeGreaterThan(0);
    await expect(page.locator(".fields-table .value-chip").count()).resolves.toBe(found.length);
    await expect(page.locator(".fields-table .not-found").count()).resolves.toBe(missing);
    const [, field] = found[0] as [string, ExtractField];
    await page.locator(".fields-table .value-chip").first().hover();
    await expect
      .poll(() => page.locator("#sources-viewer mark.quote-highlight").textContent())
      .toBe(field.value);
    await expect(markOffset(page)).resolves.toBe(field.range?.[0]);
    await page.screenshot({ path: join(screenshots, "extract.png") });
  });

  it("runs a three-case Eval from a JSONL file and opens a case in Ask", async () => {
    await page.click("#tab-eval");
    const source = (id: string, text: string) => ({ id, text });
    const cases = [
      {
        id: "boiling",
        messages: [{ role: "user", content: "At what temperature does water boil at sea level?" }],
        sources: [
          source("water.md", "Water boils at 100 degrees Celsius at sea level. Ice melts at 0 degrees."),
        ],
      },
      {
        id: "capital",
        messages: [{ role: "user", content: "What is the capital of France?" }],
        sources: [source("france.txt", "Paris is the capital of France. France borders Spain.")],
      },
      {
        id: "moon",
        messages: [
          { role: "system", content: "Answer briefly." },
          { role: "user", content: "How far away is the Moon from Earth?" },
        ],
        sources: [source("moon.md", "The Moon is about 384,400 km away from Earth. It has no atmosphere.")],
      },
    ];
    await page.setInputFiles("#dataset-file", {
      name: "three.jsonl",
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(cases.map((item) => JSON.stringify(item)).join("\n")),
    });
    await expect
      .poll(() => page.locator("#dataset-summary").textContent())
      .toBe("3 cases loaded from three.jsonl.");

    const [response] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified/eval")),
      page.click("#eval-submit"),
    ]);
    expect(response.status()).toBe(200);
    const sent = response.request().postDataJSON() as { model: string; cases: unknown[] };
    expect(sent.model).toBe("local");
    // The dataset's ids stay in the page; the service gets only {messages, sources}.
    expect(sent.cases).toEqual(cases.map(({ messages, sources }) => ({ messages, sources })));
    // The page pages through the client's evalAll, which streams each page so progress moves case by case;
    // the result is the stream's `done` event.
    expect((sent as { stream?: boolean }).stream).toBe(true);
    const done = /^event: done\ndata: (.*)$/m.exec(await response.text());
    const result = JSON.parse(done?.[1] ?? "null") as {
      aggregate: { n: number; coverage_mean: number; errored: number };
      cases: { coverage: number; error?: unknown }[];
    };
    expect(result.aggregate.n).toBe(3);
    await page.locator(".bars").waitFor();
    await expect(page.locator(".bars .bar").count()).resolves.toBe(3);
    await expect(page.locator(".bars .bar.errored").count()).resolves.toBe(result.aggregate.errored);
    const figures = await page.locator(".aggregate dd").allTextContents();
    expect(figures.slice(0, 3)).toEqual([
      "3",
      String(result.aggregate.errored),
      `${Math.round(result.aggregate.coverage_mean * 100)}%`,
    ]);
    await page.screenshot({ path: join(screenshots, "eval.png") });

    // A case opens in Ask with its own sources, question and earlier messages, and runs there.
    const [caseResponse] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      page.locator(".bars .bar").nth(2).click(),
    ]);
    expect(caseResponse.request().postDataJSON()).toMatchObject({
      model: "local",
      messages: cases[2]?.messages,
      sources: cases[2]?.sources,
    });
    await expect(page.locator("#tab-ask").getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.locator("#question").inputValue()).resolves.toBe(
      "How far away is the Moon from Earth?",
    );
    await expect(page.locator("#ask-context").isVisible()).resolves.toBe(true);
    await page.locator("#ask-result .result").waitFor();
  });

  it("shows API errors next to the action that caused them, in place of the earlier answer", async () => {
    // The case opened from Eval left an answer on the page.
    await expect(page.locator("#ask-result .result").count()).resolves.toBe(1);
    await page.fill("#model", "no-such-model");
    const [response] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      page.click("#ask-submit"),
    ]);
    expect(response.status()).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string; param?: string } };
    expect(body.error.code).toBe("model_not_found");
    const errorBox = page.locator("#ask-error");
    await errorBox.waitFor();
    await expect.poll(() => errorBox.locator(".error-message").textContent()).toBe(body.error.message);
    const field = body.error.param === undefined ? "" : ` · field ${body.error.param}`;
    await expect
      .poll(() => errorBox.locator(".error-code").textContent())
      .toBe(`model_not_found (HTTP 404)${field}`);
    await expect(page.locator("#ask-result").isHidden()).resolves.toBe(true);
    await expect(page.locator("#ask-result .result").count()).resolves.toBe(0);
    await expect(page.locator("#ask-result .answer").count()).resolves.toBe(0);
    await page.screenshot({ path: join(screenshots, "error-model-not-found.png") });

    // Empty sources: 400 no_sources.
    await page.fill("#model", "local");
    await page.click("#sources-edit");
    while ((await page.locator(".source-card").count()) > 0) {
      await page.locator(".source-card button").first().click();
    }
    const [empty] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      page.click("#ask-submit"),
    ]);
    expect(empty.status()).toBe(400);
    const emptyBody = (await empty.json()) as { error: { code: string; message: string } };
    expect(emptyBody.error.code).toBe("no_sources");
    await expect.poll(() => errorBox.locator(".error-message").textContent()).toBe(emptyBody.error.message);
    await expect(errorBox.getAttribute("role")).resolves.toBe("alert");
  });

  it("says why an unanswerable question fails, and flags the plain answer allow_ungrounded gives", async () => {
    await page.click("#ask-sample");
    await page.locator("#ask-result .result").waitFor();
    await page.fill("#question", "What is the boiling point of water on Mars?");
    const [refused] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      page.click("#ask-submit"),
    ]);
    expect(refused.status()).toBe(422);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("ungrounded");
    await expect.poll(() => page.locator("#ask-error .error-message").textContent()).toBe(body.error.message);

    await page.locator(".options summary").click();
    await page.check("#allow-ungrounded");
    const [plain] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      page.click("#ask-submit"),
    ]);
    expect(plain.request().postDataJSON()).toMatchObject({ allow_ungrounded: true });
    const result = (await plain.json()) as { text: string; grounded: boolean };
    expect(result.grounded).toBe(false);
    await expect.poll(() => page.locator("#answer-text").textContent()).toBe(result.text);
    await expect(page.locator("#ask-result .badges").textContent()).resolves.toBe("not grounded");
    await expect(page.locator("#ask-error").isHidden()).resolves.toBe(true);
    await page.uncheck("#allow-ungrounded");
  });

  it("asks for a prose answer and shows it as written: each sentence by its verdict, each new word underlined", async () => {
    await page.goto(`${baseUrl}/`);
    await page.click("#ask-form summary");
    await page.check("#ask-prose");
    // The local model answers the sample in prose, each sentence followed by its marker and supported.
    const [local] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      page.click("#ask-sample"),
    ]);
    expect(local.request().postDataJSON()).toMatchObject({ answer_format: "text", explain: true });
    const localResult = (await local.json()) as { answer: string; citations: unknown[] };
    expect(localResult.citations.length).toBeGreaterThan(0);
    const marks = page.locator("#answer-text .claim-mark");
    await expect.poll(() => marks.count()).toBeGreaterThan(0);
    await expect(
      marks.evaluateAll((all) => [...new Set(all.map((mark) => mark.getAttribute("data-verdict")))]),
    ).resolves.toEqual(["supported"]);
    await expect(page.locator("#answer-text").textContent()).resolves.toBe(localResult.answer);

    // A gateway model's prose is scripted; the service's own check of it stands in for create's result.
    const scripted =
      "Northwind Analytics opened a bakery in Paris [annual-report-2024]. Northwind Analytics ended 2024 with 240 employees and a cheerful office dog [annual-report-2024].";
    await page.route("**/v1/verified", async (route) => {
      const body = route.request().postDataJSON() as {
        sources: unknown;
        messages: unknown;
        partial?: string;
      };
      const checked = await fetch(`${baseUrl}/v1/verified/check`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          sources: body.sources,
          messages: body.messages,
          answer: scripted,
          explain: true,
        }),
      });
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, model_calls: 1 };
      const result = { id: "vfd_scripted", model: "scripted", ...(await checked.json()), answer: scripted };
      await route.fulfill({ json: { ...result, abstained: false, grounded: true, usage } });
    });
    const [scriptedResponse] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      page.click("#ask-submit"),
    ]);
    await page.unroute("**/v1/verified");
    const result = (await scriptedResponse.json()) as {
      text: string;
      partial: { term: string; answer_range: [number, number] }[];
    };
    expect(result.text).not.toContain("bakery");
    await expect
      .poll(() => marks.evaluateAll((all) => all.map((mark) => mark.getAttribute("data-verdict"))))
      .toEqual(["dropped", "partial"]);
    // Shown as the model wrote it, the dropped sentence struck through in place.
    await expect(page.locator("#answer-text").textContent()).resolves.toBe(scripted);
    const words = page.locator("#answer-text .claim-mark mark.partial-term");
    await expect(words.allTextContents()).resolves.toEqual(["cheerful", "office", "dog"]);
    expect(result.partial.map(({ answer_range }) => scripted.slice(...answer_range))).toEqual([
      "cheerful",
      "office",
      "dog",
    ]);
    await expect(words.first().getAttribute("title")).resolves.toBe('"cheerful": not in the sources');
    await expect(page.locator("#ask-result .coverage-figure").textContent()).resolves.toBe(
      "50% · 1 of 2 claims grounded",
    );
    // The dropped sentence says why in the same words on its mark and in the list.
    const drop = page.locator("#ask-result .dropped li .reason");
    await expect(drop.count()).resolves.toBe(1);
    const label = (await marks.first().getAttribute("aria-label")) ?? "";
    expect(label).toMatch(/^Dropped: ".+" is in no source and not in the question$/);
    await expect(drop.textContent()).resolves.toBe(`— ${label.replace(/^Dropped: /, "")}`);
    await page.locator("#ask-result").screenshot({ path: join(screenshots, "ask-prose.png") });
    // The next tests start from the sample's answer in JSON claims.
    await page.uncheck("#ask-prose");
    await Promise.all([page.waitForResponse(isPost("/v1/verified")), page.click("#ask-sample")]);
    await expect.poll(() => marks.count()).toBe(0);
  });

  it("strikes through dropped claims with their reasons in words (scripted API response)", async () => {
    // The local model only quotes what is there, so a gateway model's mistakes are scripted here.
    const source = "Revenue was $5.6 million in Q4.";
    await page.route("**/v1/verified", (route) =>
      route.fulfill({
        json: {
          id: "vfd_scripted",
          model: "scripted",
          text: "Revenue was $5.6 million [report].",
          citations: [
            {
              claim: "Revenue was $5.6 million.",
              quote: "Revenue was $5.6 million",
              source: "report",
              range: [0, 24],
            },
          ],
          unsupported: [
            { claim: "Profit doubled.", reason: "quote_not_found" },
            { claim: "Costs fell.", reason: "unknown_source" },
            { claim: "Q3 revenue was $5.6 million.", reason: "number_not_found" },
          ],
          coverage: 0.25,
          abstained: true,
          grounded: true,
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, model_calls: 1 },
        },
      }),
    );
    await page.click("#sources-edit");
    await page.locator(".source-id").first().fill("report");
    await page.locator(".source-text").first().fill(source);
    await page.click("#ask-submit");
    await page.locator(".dropped").waitFor();
    await page.unroute("**/v1/verified");
    await expect(page.locator(".dropped li").allTextContents()).resolves.toEqual([
      "Profit doubled. — quote not found in the source",
      "Costs fell. — cites a source that was not supplied",
      "Q3 revenue was $5.6 million. — a number is not in the cited source/cell",
    ]);
    await expect(page.locator(".dropped del").count()).resolves.toBe(3);
    await expect(page.locator("#ask-result .badges").textContent()).resolves.toBe("abstained");
    await expect(page.locator("#ask-result .coverage-figure").textContent()).resolves.toBe(
      "25% · 1 of 4 claims grounded",
    );
    await page.locator(".answer .chip").hover();
    await expect
      .poll(() => page.locator("#sources-viewer mark").textContent())
      .toBe("Revenue was $5.6 million");
    await page.screenshot({ path: join(screenshots, "ask-dropped-claims.png") });
  });

  it("runs an Eval in prose and shows each case's answer as written: each sentence by its verdict, each new word underlined", async () => {
    await page.goto(`${baseUrl}/`);
    await page.click("#tab-eval");
    await page.check("#eval-prose");
    // The local model answers the sample dataset in prose; each case's answer comes back whole (`details`).
    const [local] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified/eval")),
      page.click("#eval-sample"),
    ]);
    expect(local.request().postDataJSON()).toMatchObject({
      answer_format: "text",
      details: true,
      explain: true,
    });
    const localDone = /^event: done\ndata: (.*)$/m.exec(await local.text());
    const localResult = JSON.parse(localDone?.[1] ?? "null") as {
      cases: { result?: { answer?: string; citations: unknown[] } }[];
    };
    const firstAnswer = localResult.cases[0]?.result?.answer ?? "";
    expect(localResult.cases[0]?.result?.citations.length).toBeGreaterThan(0);
    const caseAnswers = page.locator("#eval-result .case-answer");
    await expect.poll(() => caseAnswers.count()).toBe(localResult.cases.length);
    // A case's answer is drawn when its disclosure opens, by the renderer the Ask and Check tabs use.
    await expect(page.locator("#eval-answer-0").count()).resolves.toBe(0);
    await caseAnswers.first().locator("summary").click();
    const localMarks = page.locator("#eval-answer-0 .claim-mark");
    await expect.poll(() => localMarks.count()).toBeGreaterThan(0);
    await expect(
      localMarks.evaluateAll((all) => [...new Set(all.map((mark) => mark.getAttribute("data-verdict")))]),
    ).resolves.toEqual(["supported"]);
    await expect(page.locator("#eval-answer-0").textContent()).resolves.toBe(firstAnswer);

    // A gateway model's prose is scripted: the service's own eval of the case, its result replaced by the
    // service's check of the scripted answer.
    const scripted =
      "Northwind Analytics opened a bakery in Paris [annual-report-2024]. Northwind Analytics ended 2024 with 240 employees and a cheerful office dog [annual-report-2024].";
    const sample = localResult.cases.length;
    await page.route("**/v1/verified/eval", async (route) => {
      const body = route.request().postDataJSON() as { cases: { messages: unknown; sources: unknown }[] };
      const evaluated = await fetch(`${baseUrl}/v1/verified/eval`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...body, stream: false }),
      });
      const result = (await evaluated.json()) as {
        cases: { coverage: number; citations: number; unsupported: number; result?: unknown }[];
      };
      const checked = await fetch(`${baseUrl}/v1/verified/check`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          sources: body.cases[0]?.sources,
          messages: body.cases[0]?.messages,
          answer: scripted,
          explain: true,
        }),
      });
      const check = (await checked.json()) as {
        coverage: number;
        citations: unknown[];
        unsupported: unknown[];
      };
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, model_calls: 1 };
      result.cases[0] = {
        coverage: check.coverage,
        citations: check.citations.length,
        unsupported: check.unsupported.length,
        result: { ...check, answer: scripted, abstained: false, grounded: true, usage },
      };
      // A server that answers plain JSON is read as a stream of its `done` alone.
      await route.fulfill({ json: result });
    });
    const [scriptedResponse] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified/eval")),
      page.click("#eval-submit"),
    ]);
    await page.unroute("**/v1/verified/eval");
    const scriptedResult = (await scriptedResponse.json()) as {
      cases: { result: { text: string; partial: { answer_range: [number, number] }[] } }[];
    };
    expect(scriptedResult.cases[0]?.result.text).not.toContain("bakery");
    await expect.poll(() => caseAnswers.count()).toBe(sample);
    await caseAnswers.first().locator("summary").click();
    const marks = page.locator("#eval-answer-0 .claim-mark");
    await expect
      .poll(() => marks.evaluateAll((all) => all.map((mark) => mark.getAttribute("data-verdict"))))
      .toEqual(["dropped", "partial"]);
    // Shown as the model wrote it, the dropped sentence struck through in place.
    await expect(page.locator("#eval-answer-0").textContent()).resolves.toBe(scripted);
    const words = page.locator("#eval-answer-0 .claim-mark mark.partial-term");
    await expect(words.allTextContents()).resolves.toEqual(["cheerful", "office", "dog"]);
    expect(
      scriptedResult.cases[0]?.result.partial.map(({ answer_range }) => scripted.slice(...answer_range)),
    ).toEqual(["cheerful", "office", "dog"]);
    // The dropped sentence says why in the same words on its mark and in the list under it.
    const drop = caseAnswers.first().locator(".unsupported li .reason");
    await expect(drop.count()).resolves.toBe(1);
    const label = (await marks.first().getAttribute("aria-label")) ?? "";
    expect(label).toMatch(/^Dropped: ".+" is in no source and not in the question$/);
    await expect(drop.textContent()).resolves.toBe(`— ${label.replace(/^Dropped: /, "")}`);
    await page.locator("#eval-result").screenshot({ path: join(screenshots, "eval-prose.png") });

    // The case opens in Ask with prose answers asked for too.
    const [caseResponse] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      caseAnswers.first().locator(".open-in-ask").click(),
    ]);
    expect(caseResponse.request().postDataJSON()).toMatchObject({ answer_format: "text" });
    await expect(page.locator("#ask-prose").isChecked()).resolves.toBe(true);
  });

  it("checks a pasted answer: each sentence marked by its verdict, its support lit in the source, each drop's reason", async () => {
    await page.goto(`${baseUrl}/`);
    await page.click("#tab-check");
    await expect(page.locator("#panel-check").isVisible()).resolves.toBe(true);
    // The sample loads the sample sources (and checks the sample answer); then a person pastes their own.
    await Promise.all([page.waitForResponse(isPost("/v1/verified/check")), page.click("#check-sample")]);
    await page.locator("#check-answer-text .claim-mark").first().waitFor();
    // One count everywhere: the figure's claims are the ones coverage counts, so the two agree.
    const figure = (await page.locator("#check-result .coverage-figure").textContent()) ?? "";
    const counted = /^(\d+)% · (\d+) of (\d+) claims? grounded$/.exec(figure);
    expect(counted, figure).not.toBeNull();
    const [, shownPercent, grounded, total] = (counted as RegExpExecArray).map(Number);
    expect(Math.round((100 * (grounded as number)) / (total as number))).toBe(shownPercent);
    await expect(page.locator("#check-answer-text .claim-mark").count()).resolves.toBeGreaterThanOrEqual(
      total as number,
    );
    const answer =
      "The strongest quarter was Q4 [annual-report-2024]. The chief executive is Amélie Durand [1].\n\n- It opened an office in Berlin [2].";
    await page.fill("#check-answer", answer);
    const [response] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified/check")),
      page.click("#check-submit"),
    ]);
    expect(response.status()).toBe(200);
    const body = response.request().postDataJSON() as { answer: string; explain: boolean };
    expect(body).toMatchObject({ answer, explain: true });
    const result = (await response.json()) as {
      citations: (Citation & { answer_range: [number, number] })[];
      unsupported: { claim: string; reason: string; answer_range: [number, number] }[];
    };
    expect(result.citations.map((citation) => citation.answer_range)).toEqual([[0, 50]]);
    expect(result.unsupported.map((item) => item.reason)).toEqual(["wrong_source", "entity_not_found"]);

    // Each sentence is marked in place, in the answer as pasted, by its verdict.
    const marks = page.locator("#check-answer-text .claim-mark");
    await expect.poll(() => marks.count()).toBe(3);
    await expect(
      marks.evaluateAll((all) => all.map((mark) => mark.getAttribute("data-verdict"))),
    ).resolves.toEqual(["supported", "dropped", "dropped"]);
    const ranges = [
      result.citations[0]?.answer_range,
      ...result.unsupported.map((item) => item.answer_range),
    ];
    // Shown as markdown: the list item is a list item, its "- " markup hidden.
    await expect(marks.allTextContents()).resolves.toEqual(
      ranges.map((range) => answer.slice(...(range ?? [0, 0])).replace(/^- /, "")),
    );
    await expect(page.locator("#check-answer-text > p").textContent()).resolves.toBe(
      "The strongest quarter was Q4 [annual-report-2024]. The chief executive is Amélie Durand [1].",
    );
    await expect(page.locator("#check-answer-text > .md-bullet").textContent()).resolves.toBe(
      "It opened an office in Berlin [2].",
    );
    await expect(page.locator("#check-result .coverage-figure").textContent()).resolves.toBe(
      "33% · 1 of 3 claims grounded",
    );

    // Hovering the supported sentence lights up its support at its exact range in the source.
    const citation = result.citations[0] as Citation;
    await marks.first().hover();
    const mark = page.locator("#sources-viewer mark.quote-highlight");
    await expect.poll(() => mark.textContent()).toBe(citation.quote);
    await expect(markOffset(page)).resolves.toBe(citation.range[0]);
    await expect(marks.first().getAttribute("aria-label")).resolves.toBe(
      "Supported by annual-report-2024 (100% of its words)",
    );

    // A dropped sentence says why, in place and in the list of drops.
    await expect(marks.nth(1).getAttribute("aria-label")).resolves.toBe(
      "Dropped: its cited source does not support it; fact-sheet does",
    );
    const drops = page.locator("#check-result .dropped li");
    await expect(
      drops.evaluateAll((all) => all.map((item) => item.getAttribute("data-reason"))),
    ).resolves.toEqual(["wrong_source", "entity_not_found"]);
    await expect(drops.nth(1).textContent()).resolves.toBe(
      'It opened an office in Berlin. — "Berlin" is in no source and not in the question',
    );
    // One wording per drop: the mark's label and tooltip, and the list's line and its tooltip, say the same.
    for (const [at, drop] of [1, 2].entries()) {
      const label = (await marks.nth(drop).getAttribute("aria-label")) ?? "";
      await expect(marks.nth(drop).getAttribute("title")).resolves.toBe(label);
      const reason = drops.nth(at).locator(".reason");
      await expect(reason.textContent()).resolves.toBe(`— ${label.replace(/^Dropped: /, "")}`);
      await expect(reason.getAttribute("title")).resolves.toBe(label.replace(/^Dropped: /, ""));
    }
    await page.screenshot({ path: join(screenshots, "check.png") });

    // A markdown answer reads as markdown (heading, list items, no ** or ##), marked the same way.
    const markdown =
      "## Findings\n\n- **The strongest quarter was Q4** [annual-report-2024].\n- The chief executive is Amélie Durand [1].";
    await page.fill("#check-answer", markdown);
    await Promise.all([page.waitForResponse(isPost("/v1/verified/check")), page.click("#check-submit")]);
    await expect.poll(() => page.locator("#check-answer-text .md-bullet").count()).toBe(2);
    await expect(page.locator("#check-answer-text h4").textContent()).resolves.toBe("Findings");
    const shown = (await page.locator("#check-answer-text").textContent()) ?? "";
    expect(shown).not.toMatch(/\*\*|##|^- /m);
    await expect(
      marks.evaluateAll((all) => all.map((each) => each.getAttribute("data-verdict"))),
    ).resolves.toEqual(["supported", "dropped"]);
    await expect(marks.first().textContent()).resolves.toBe(
      "The strongest quarter was Q4 [annual-report-2024].",
    );
    await page.screenshot({ path: join(screenshots, "check-markdown.png") });
  });

  it("checks a partly supported sentence: kept and marked with the words no source holds, or dropped when asked", async () => {
    await openCheck();
    const answer = "Northwind Analytics ended 2024 with 240 employees and a cheerful office dog [1].";
    const kept = await checkAnswer(answer);
    expect(kept.request().postDataJSON()).toMatchObject({ answer, partial: "keep" });
    const keptResult = (await kept.json()) as { partial: { term: string; answer_range: [number, number] }[] };
    expect(keptResult.partial.map(({ term, answer_range }) => [term, answer.slice(...answer_range)])).toEqual(
      [
        ["cheerful", "cheerful"],
        ["office", "office"],
        ["dog", "dog"],
      ],
    );
    const marks = page.locator("#check-answer-text .claim-mark");
    await expect.poll(() => marks.first().getAttribute("data-verdict")).toBe("partial");
    const label = (await marks.first().getAttribute("aria-label")) ?? "";
    expect(label).toMatch(/^Partly supported by annual-report-2024 \(\d+% of its words\); /);
    expect(label.endsWith("; not in the sources: cheerful, office, dog")).toBe(true);
    // Each such word is marked inside its claim, at its answer_range: underlined (not colour alone) and
    // named "not in the sources" in its tooltip.
    const words = page.locator("#check-answer-text .claim-mark mark.partial-term");
    await expect.poll(() => words.count()).toBe(3);
    await expect(words.allTextContents()).resolves.toEqual(["cheerful", "office", "dog"]);
    await expect(words.evaluateAll((all) => all.map((word) => word.getAttribute("title")))).resolves.toEqual([
      '"cheerful": not in the sources',
      '"office": not in the sources',
      '"dog": not in the sources',
    ]);
    await expect(
      words.first().evaluate((word) => getComputedStyle(word).textDecorationLine),
    ).resolves.toContain("underline");
    // Where each mark stands in the shown answer is where its answer_range is in the answer as pasted.
    const shownAt = await words.evaluateAll((all) =>
      all.map((word) => {
        const paragraph = word.closest("p") as HTMLElement;
        const before = document.createRange();
        before.setStart(paragraph, 0);
        before.setEndBefore(word);
        return before.toString().length;
      }),
    );
    expect(shownAt).toEqual(keptResult.partial.map(({ answer_range }) => answer_range[0]));
    await page.locator("#check-result").screenshot({ path: join(screenshots, "check-partial.png") });

    await page.check("#check-drop-partial");
    const [dropped] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified/check")),
      page.click("#check-submit"),
    ]);
    expect(dropped.request().postDataJSON()).toMatchObject({ answer, partial: "drop" });
    await expect.poll(() => marks.first().getAttribute("data-verdict")).toBe("dropped");
    const drops = page.locator("#check-result .dropped li");
    await expect(drops.first().getAttribute("data-reason")).resolves.toBe("partial_support");
    await expect(words.count()).resolves.toBe(0);
    await expect(drops.first().textContent()).resolves.toContain('"cheerful", "office", "dog"');
    await expect(page.locator("#check-result .coverage-figure").textContent()).resolves.toBe(
      "0% · 0 of 1 claim grounded",
    );

    // Support pooled over two sentences apart: hovering the claim lights both, at their exact ranges.
    const pooled =
      "Northwind Analytics was founded in 2016 in Lyon and plans to open an office in Madrid in 2025 [1].";
    await page.fill("#check-answer", pooled);
    const [checked] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified/check")),
      page.click("#check-submit"),
    ]);
    const { citations } = (await checked.json()) as { citations: Citation[] };
    expect(citations).toHaveLength(2);
    await expect.poll(() => marks.first().getAttribute("data-verdict")).toBe("supported");
    await marks.first().hover();
    const lit = page.locator("#sources-viewer mark.quote-highlight");
    await expect.poll(() => lit.count()).toBe(2);
    const inOrder = [...citations].sort((a, b) => a.range[0] - b.range[0]);
    await expect(lit.allTextContents()).resolves.toEqual(inOrder.map((citation) => citation.quote));
  });

  it("says when a quotation differs from its source only in case, and keeps it in lenient mode", async () => {
    await openCheck();
    const answer = 'The summary says "operating costs rose more slowly than revenue" [1].';
    const strict = await checkAnswer(answer);
    expect(strict.request().postDataJSON()).toMatchObject({ answer, mode: "strict", explain: true });
    const said =
      'the quotation "operating costs rose more slowly than revenue" differs from its cited source\'s "Operating costs rose more slowly than revenue" only in the case of its first letter (lenient mode keeps it)';
    const marks = page.locator("#check-answer-text .claim-mark");
    await expect.poll(() => marks.first().getAttribute("data-verdict")).toBe("dropped");
    await expect(marks.first().getAttribute("aria-label")).resolves.toBe(`Dropped: ${said}`);
    const drop = page.locator("#check-result .dropped li");
    await expect(drop.first().getAttribute("data-reason")).resolves.toBe("quote_not_found");
    await expect(drop.first().locator(".reason").textContent()).resolves.toBe(`— ${said}`);

    await page.selectOption("#mode", "lenient");
    const lenient = await checkAnswer(answer);
    expect(lenient.request().postDataJSON()).toMatchObject({ answer, mode: "lenient" });
    await expect.poll(() => marks.first().getAttribute("data-verdict")).toBe("supported");
    await page.selectOption("#mode", "strict");
  });

  it("checks a pasted chat.completion JSON by its answer", async () => {
    await page.goto(`${baseUrl}/`);
    await page.click("#tab-check");
    await Promise.all([page.waitForResponse(isPost("/v1/verified/check")), page.click("#check-sample")]);
    await page.locator("#check-answer-text .claim-mark").first().waitFor();
    const answer = "The strongest quarter was Q4 [annual-report-2024].";
    const completion = {
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
    };
    await page.fill("#check-answer", JSON.stringify(completion, null, 2));
    const [response] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified/check")),
      page.click("#check-submit"),
    ]);
    expect(response.request().postDataJSON()).toMatchObject({ answer });
    await expect(page.locator("#check-answer").inputValue()).resolves.toBe(answer);
    await expect.poll(() => page.locator("#check-answer-text").textContent()).toBe(answer);
  });

  it("asked nothing of any other origin (no CDN, no external fonts) and raised no script or CSP errors", () => {
    expect(pageProblems).toEqual([]);
    expect(requestedUrls.length).toBeGreaterThan(0);
    expect(requestedUrls.filter((url) => !url.startsWith(`${baseUrl}/`) && !url.startsWith("data:"))).toEqual(
      [],
    );
  });

  it("works behind a path prefix: the client calls the service under the page's own path", async () => {
    const proxy = await startPrefixProxy(baseUrl);
    const prefixed = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    try {
      const prefixedPage = await prefixed.newPage();
      await prefixedPage.goto(proxy.url);
      await prefixedPage.fill("#api-key", apiKey);
      const [response] = await Promise.all([
        prefixedPage.waitForResponse(isPost("/verified/v1/verified")),
        prefixedPage.click("#ask-sample"),
      ]);
      expect(response.status()).toBe(200);
      await prefixedPage.locator(".answer .chip").first().waitFor();
    } finally {
      await prefixed.close();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });

  it("streams the sample Ask when asked to: claims arrive as events, then the result shows the done event", async () => {
    await page.goto(`${baseUrl}/`);
    await page.fill("#api-key", apiKey);
    await page.locator(".options summary").first().click();
    await page.check("#ask-stream");
    const [response] = await Promise.all([
      page.waitForResponse(isPost("/v1/verified")),
      page.click("#ask-sample"),
    ]);
    expect(response.status()).toBe(200);
    expect((response.request().postDataJSON() as { stream?: boolean }).stream).toBe(true);
    const text = await response.text();
    expect(text).toMatch(/^event: claim$/m);
    const done = /^event: done\ndata: (.*)$/m.exec(text);
    const result = JSON.parse(done?.[1] ?? "null") as { citations: Citation[] };
    expect(result.citations.length).toBeGreaterThan(0);
    await page.locator(".answer .chip").first().waitFor();
    await expect(page.locator(".answer .chip").count()).resolves.toBe(result.citations.length);
    await page.uncheck("#ask-stream");
  });

  it("is readable at 360 px wide in dark mode", async () => {
    const narrow = await browser.newContext({ viewport: { width: 360, height: 780 }, colorScheme: "dark" });
    const small = await narrow.newPage();
    await small.goto(`${baseUrl}/`);
    await small.fill("#api-key", apiKey);
    await Promise.all([small.waitForResponse(isPost("/v1/verified")), small.click("#ask-sample")]);
    await small.locator(".answer .chip").first().waitFor();
    const layout = await small.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      background: getComputedStyle(document.documentElement).backgroundColor,
    }));
    expect(layout.scrollWidth).toBeLessThanOrEqual(360);
    expect(layout.background).toBe("rgb(20, 21, 23)");
    await small.screenshot({ path: join(screenshots, "ask-360-dark.png"), fullPage: true });
    await small.click("#tab-extract");
    await small.click("#extract-sample");
    await small.locator(".fields-table").waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await small.screenshot({ path: join(screenshots, "extract-360-dark.png"), fullPage: true });
    await small.click("#tab-eval");
    const [evaluation] = await Promise.all([
      small.waitForResponse(isPost("/v1/verified/eval")),
      small.click("#eval-sample"),
    ]);
    const done = /^event: done\ndata: (.*)$/m.exec(await evaluation.text());
    const sample = JSON.parse(done?.[1] ?? "null") as { cases: unknown[] };
    await small.locator(".bars").waitFor();
    await expect(small.locator(".bars .bar").count()).resolves.toBe(sample.cases.length);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await small.screenshot({ path: join(screenshots, "eval-360-dark.png"), fullPage: true });
    await small.click("#tab-check");
    await Promise.all([small.waitForResponse(isPost("/v1/verified/check")), small.click("#check-sample")]);
    await small.locator("#check-answer-text .claim-mark").first().waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await small.screenshot({ path: join(screenshots, "check-360-dark.png"), fullPage: true });
    await narrow.close();
  });
});
