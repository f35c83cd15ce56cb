// Child process of the worst-case bench: sends one family's request to an in-process app `runs` times
// through the real `POST /v1/verified/check` path (parsing, validation, check, serialisation) and prints
// one line per request, `<cpu ms> <status> <body bytes> <longest block ms>`, so the parent can stop a request
// that runs too long. The longest block is the longest gap between two turns of a 1 ms timer ticking through
// the request (`monitorEventLoopDelay` drops the first delay, which is the whole block of a request that never
// yields): how long the request kept every other request waiting.
// Before them, WARM_UP requests of the same family at 100 KB (at most BODY_BYTES) run unreported, so that
// the reported ones measure the check rather than V8 compiling the service's code for its first requests.
//   tsx bench/support/worst-case-request.ts FAMILY_INDEX BODY_BYTES RUNS [WARM_UP]

import { performance } from "node:perf_hooks";
import { createApp } from "../../src/server/app.js";
import { defaultServerConfig } from "../../src/server/config.js";
import { worstCaseFamilies } from "./worst-case-families.js";

const [familyArg, bytesArg, runsArg, warmUpArg] = process.argv.slice(2);
const family = worstCaseFamilies[Number(familyArg)];
if (family === undefined) throw new Error(`no family ${familyArg}`);
const payload = JSON.stringify(family.body(Number(bytesArg)));
if (Buffer.byteLength(payload) > Number(bytesArg))
  throw new Error(`${family.name}: body over ${bytesArg} bytes`);
const app = await createApp({
  config: {
    ...defaultServerConfig,
    sourcesBudget: family.sourcesBudget ?? defaultServerConfig.sourcesBudget,
  },
  gateway: {
    generate: () => Promise.reject(new Error("the check path calls no model")),
  },
});
await app.ready();
/** Starts a 1 ms timer chain; `stop` returns the longest gap between the start and a tick or two ticks. */
function tickLongestGap(): { stop(): Promise<number> } {
  let longest = 0;
  let last = performance.now();
  let running = true;
  let timer: NodeJS.Timeout;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  return {
    async stop() {
      // One more tick after the request: a request that never yielded is measured up to its end.
      await new Promise((resolve) => setTimeout(resolve, 1));
      running = false;
      clearTimeout(timer);
      tick();
      return longest;
    },
  };
}

const warmUpPayload = JSON.stringify(family.body(Math.min(Number(bytesArg), 100_000)));
for (let run = 0; run < Number(warmUpArg ?? 0); run += 1) {
  const response = await app.inject({
    method: "POST",
    url: "/v1/verified/check",
    headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
    payload: warmUpPayload,
  });
  if (response.statusCode !== 200) throw new Error(`${family.name}: warm-up status ${response.statusCode}`);
}

for (let run = 0; run < Number(runsArg); run += 1) {
  const ticker = tickLongestGap();
  const started = process.cpuUsage();
  const response = await app.inject({
    method: "POST",
    url: "/v1/verified/check",
    headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
    payload,
  });
  const used = process.cpuUsage(started);
  const longestBlockMs = await ticker.stop();
  console.log(
    `${(used.user + used.system) / 1000} ${response.statusCode} ${Buffer.byteLength(payload)} ${longestBlockMs}`,
  );
}
await app.close();
