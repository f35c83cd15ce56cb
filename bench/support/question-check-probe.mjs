// Issue 34 item 3's "4 MiB of question text": `POST /v1/verified/check` of a one-sentence answer whose
// `messages` hold a 4 MiB user message (SHAPE `words`; `numbers`: numbers, dates and percentages; `cjk`: Japanese
// with a `。` every ten characters), three in a row against one built service (`node dist/cli/main.js serve`, loaded with task-cpu-probe.mjs, whose report
// of each check goes to stderr), with `/healthz` probed every 100 ms from a process of its own.
//   npm run build && node bench/support/question-check-probe.mjs [SHAPE=words]
import { spawn } from "node:child_process";
import { once } from "node:events";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const [shape = "words"] = process.argv.slice(2);
const dist = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const taskProbe = fileURLToPath(new URL("./task-cpu-probe.mjs", import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const service = spawn(process.execPath, ["--import", taskProbe, dist, "serve", "--port", String(port)], {
  env: { ...process.env, VERIFIED_LOG_LEVEL: "warn", VERIFIED_GATEWAY_URL: "" },
  stdio: ["ignore", "ignore", "inherit"],
});
const base = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {}
  await sleep(50);
}
const prober = `const base=process.argv[1];let l=[];process.on("message",()=>{process.send(l.sort((a,b)=>b-a).slice(0,3));l=[];});for(;;){const s=performance.now();try{await (await fetch(base+"/healthz")).text();l.push(performance.now()-s);}catch{}await new Promise(r=>setTimeout(r,100));}`;
const probe = spawn(process.execPath, ["--input-type=module", "-e", prober, base], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const report = async () => {
  const r = once(probe, "message");
  probe.send("r");
  return (await r)[0];
};
const units = {
  words: "Alpha beta gamma delta epsilon zeta eta ",
  numbers: "1,250 in 2019-03-04 and 17% of 3.5 million ",
  // Japanese with a full stop every ten characters (three bytes a character: 1.4 Mi characters in 4 MiB).
  cjk: "東京都の人口は多い。",
};
const unit = units[shape] ?? units.words;
const question = unit.repeat(Math.floor((4 * 1024 * 1024) / Buffer.byteLength(unit)));
const body = JSON.stringify({
  sources: [{ id: "s", text: "Alpha beta gamma delta." }],
  answer: "Alpha beta gamma [s].",
  messages: [{ role: "user", content: question }],
});
await sleep(300);
await report();
service.kill("SIGUSR2");
await sleep(200);
for (let run = 0; run < 3; run++) {
  const started = performance.now();
  const r = await fetch(`${base}/v1/verified/check`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  await r.text();
  const ms = performance.now() - started;
  const longest = await report();
  service.kill("SIGUSR2");
  await sleep(200);
  console.log(
    `${shape} ${run + 1}: status ${r.status}, ${ms.toFixed(0)} ms; longest /healthz ${longest.map((x) => x.toFixed(0)).join(", ")} ms; load ${loadavg()[0].toFixed(2)}`,
  );
}
probe.kill();
service.kill();
