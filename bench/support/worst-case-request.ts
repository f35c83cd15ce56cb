// Child process of the worst-case bench: sends one family's request to an in-process app `runs` times
// through the real `POST /v1/verified/check` path (parsing, validation, check, serialisation) and prints
// one line per request, `<cpu ms> <status> <body bytes> <longest block ms>`, so the parent can stop a request
// that runs too long. The longest block is the largest event-loop delay during the request, from
// `perf_hooks.monitorEventLoopDelay` (a 1 ms timer): how long the request kept every other request waiting.
//   tsx bench/support/worst-case-request.ts FAMILY_INDEX BODY_BYTES RUNS

import { monitorEventLoopDelay } from "node:perf_hooks";
import { createApp } from "../../src/server/app.js";
import { defaultServerConfig } from "../../src/server/config.js";
import { worstCaseFamilies } from "./worst-case-families.js";

const [familyArg, bytesArg, runsArg] = process.argv.slice(2);
const family = worstCaseFamilies[Number(familyArg)];
if (family === undefined) throw new Error(`no family ${familyArg}`);
const payload = JSON.stringify(family.body(Number(bytesArg)));
if (Buffer.byteLength(payload) > Number(bytesArg))
  throw new Error(`${family.name}: body over ${bytesArg} bytes`);
const app = await createApp({
  config: defaultServerConfig,
  gateway: {
    generate: () => Promise.reject(new Error("the check path calls no model")),
  },
});
await app.ready();
const delays = monitorEventLoopDelay({ resolution: 1 });
for (let run = 0; run < Number(runsArg); run += 1) {
  delays.reset();
  delays.enable();
  const started = process.cpuUsage();
  const response = await app.inject({
    method: "POST",
    url: "/v1/verified/check",
    headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
    payload,
  });
  const used = process.cpuUsage(started);
  delays.disable();
  const longestBlockMs = delays.max / 1e6;
  console.log(
    `${(used.user + used.system) / 1000} ${response.statusCode} ${Buffer.byteLength(payload)} ${longestBlockMs}`,
  );
}
await app.close();
