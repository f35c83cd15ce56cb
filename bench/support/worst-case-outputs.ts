// The outputs of every answer-mode worst-case family, hashed: a change meant to make the check faster without
// changing what it answers is run on both commits and the two lists compared (`diff`). For each family, body
// size and request variant (default offsets; `offsets: "utf8"`; `explain` with `offsets: "codepoint"`), one
// line: the `/v1/verified/check` status and a hash of its body, then for each stream chunking (the model's
// answer cut every N characters, a turn of the event loop every 97 pieces) the streamed create's status, a hash
// of all its events and their length. Request ids are blanked (they differ per request); the result id is
// fixed. The last line hashes every line. The app is the source tree's, or the build in APP_DIST (a `dist`
// directory, for a commit built elsewhere).
//   npx tsx bench/support/worst-case-outputs.ts [SIZES] [CHUNKS]      (defaults: 100000,1000000 and 64,7,1000)
//   APP_DIST=/path/to/other/dist npx tsx bench/support/worst-case-outputs.ts

import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { createApp as CreateApp } from "../../src/server/app.js";
import type { defaultServerConfig as DefaultServerConfig } from "../../src/server/config.js";
import { worstCaseFamilies } from "./worst-case-families.js";

const appDist = process.env.APP_DIST;
const { createApp } = (await import(
  appDist === undefined ? "../../src/server/app.js" : `${appDist}/server/app.js`
)) as { createApp: typeof CreateApp };
const { defaultServerConfig } = (await import(
  appDist === undefined ? "../../src/server/config.js" : `${appDist}/server/config.js`
)) as { defaultServerConfig: typeof DefaultServerConfig };

const [sizesArg, chunksArg] = process.argv.slice(2);
const sizes = (sizesArg ?? "100000,1000000").split(",").map(Number);
const chunkings = (chunksArg ?? "64,7,1000").split(",").map(Number);
const variants: Record<string, unknown>[] = [
  {},
  { offsets: "utf8" },
  { explain: true, offsets: "codepoint" },
];
const headers = { "content-type": "application/json", authorization: "Bearer outputs" };
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const REQUEST_ID = /"request_id":"[^"]*"/g;
const hashOf = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 16);

let reply: string[] = [];
const apps = new Map<number, Awaited<ReturnType<typeof CreateApp>>>();
async function appFor(sourcesBudget: number): Promise<Awaited<ReturnType<typeof CreateApp>>> {
  let app = apps.get(sourcesBudget);
  if (app === undefined) {
    app = await createApp({
      config: { ...defaultServerConfig, sourcesBudget },
      newId: (prefix) => `${prefix}_outputs`,
      gateway: {
        async generate(request) {
          request.stream?.onOpen();
          for (const [index, piece] of reply.entries()) {
            request.stream?.onText(piece);
            if ((index + 1) % 97 === 0) await nextTurn();
          }
          return { content: reply.join(""), usage };
        },
      },
    });
    apps.set(sourcesBudget, app);
  }
  return app;
}

const all = createHash("sha256");
for (const [index, family] of worstCaseFamilies.entries()) {
  if (!family.name.startsWith("answer")) continue;
  const app = await appFor(family.sourcesBudget ?? defaultServerConfig.sourcesBudget);
  for (const size of sizes) {
    const body = family.body(size);
    const answer = body.answer ?? "";
    for (const variant of variants) {
      const check = await app.inject({
        method: "POST",
        url: "/v1/verified/check",
        headers,
        payload: JSON.stringify({ ...body, ...variant }),
      });
      const line = [
        `${index} ${size} ${JSON.stringify(variant)}`,
        `check ${check.statusCode} ${hashOf(check.body.replace(REQUEST_ID, '"request_id":""'))}`,
      ];
      const { claims: _claims, answer: _answer, messages, ...rest } = body;
      for (const chars of chunkings) {
        reply = [];
        for (let at = 0; at < answer.length; at += chars) reply.push(answer.slice(at, at + chars));
        // Read as a stream: `inject`'s buffered reply never drains, so a stream held back by backpressure waits.
        const response = await app.inject({
          method: "POST",
          url: "/v1/verified",
          headers,
          payloadAsStream: true,
          payload: JSON.stringify({
            ...rest,
            ...variant,
            model: "outputs",
            messages: messages ?? [{ role: "user", content: "q" }],
            stream: true,
            answer_format: "text",
          }),
        });
        const chunks: Buffer[] = [];
        for await (const chunk of response.stream() as AsyncIterable<Buffer>) chunks.push(chunk);
        const events = Buffer.concat(chunks).toString().replace(REQUEST_ID, '"request_id":""');
        line.push(`stream/${chars} ${response.statusCode} ${hashOf(events)} ${events.length}`);
      }
      all.update(line.join(" "));
      console.log(line.join(" "));
    }
  }
}
console.log(`all ${all.digest("hex")}`);
for (const app of apps.values()) await app.close();
