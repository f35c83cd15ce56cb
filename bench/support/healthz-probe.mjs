// A separate process that asks `URL/healthz` every 100 ms (or at once when an answer took longer) and prints,
// per answer, `<sent> <answered>` in epoch milliseconds: the worst-case bench's view, from outside the
// service's event loop, of how long it kept other requests waiting.
//   node bench/support/healthz-probe.mjs http://127.0.0.1:PORT
const [base] = process.argv.slice(2);
const INTERVAL_MS = 100;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
process.stdin.on("close", () => process.exit(0));
process.stdin.resume();
for (;;) {
  const sent = Date.now();
  try {
    await (await fetch(`${base}/healthz`)).text();
  } catch {
    // The service is closing: the bench stops this process.
  }
  const answered = Date.now();
  process.stdout.write(`${sent} ${answered}\n`);
  await sleep(Math.max(0, sent + INTERVAL_MS - answered));
}
