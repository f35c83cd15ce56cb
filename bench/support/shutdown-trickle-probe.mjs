// Issue 34 item 9's shutdown: CLIENTS connections trickle a request to a built service (`node
// dist/cli/main.js serve` with VERIFIED_SHUTDOWN_TIMEOUT_MS=TIMEOUT_MS), one byte every 200 ms: MODE `headers`
// trickles its headers (no request yet), `body` a body announced as 100,000 bytes. 300 ms later the service
// gets SIGTERM; prints the time to its exit (bound: the shutdown timeout plus 2 s), its exit code, and when
// each connection closed with the status it was answered.
//   npm run build && node bench/support/shutdown-trickle-probe.mjs [MODE=headers] [CLIENTS=1] [TIMEOUT_MS=3000]
import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const [mode = "headers", clientsArg = "1", timeoutMs = "3000"] = process.argv.slice(2);
const main = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const service = spawn(process.execPath, [main, "serve", "--port", String(port)], {
  env: {
    ...process.env,
    VERIFIED_LOG_LEVEL: "info",
    VERIFIED_SHUTDOWN_TIMEOUT_MS: timeoutMs,
    VERIFIED_REQUEST_TIMEOUT_MS: "600000",
    VERIFIED_GATEWAY_URL: "",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
let output = "";
service.stdout.setEncoding("utf8").on("data", (text) => {
  output += text;
});
while (!output.includes("verified is serving")) await sleep(20);
const start =
  mode === "body"
    ? "POST /v1/verified HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
    : "POST /v1/verified HTTP/1.1\r\nHost: x\r\nX-Slow: a";
const closes = [];
for (let client = 0; client < Number(clientsArg); client += 1) {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  let received = "";
  socket.setEncoding("utf8").on("data", (text) => {
    received += text;
  });
  socket.write(start);
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(mode === "body" ? " " : "a");
  }, 200);
  closes.push(
    new Promise((resolve) =>
      socket.once("close", () => {
        clearInterval(timer);
        resolve({ atMs: performance.now(), status: received.slice(9, 12) || "none" });
      }),
    ),
  );
}
await sleep(300);
const signalled = performance.now();
service.kill("SIGTERM");
const [code] = await once(service, "exit");
const exitMs = performance.now() - signalled;
const closed = await Promise.race([Promise.all(closes), sleep(100).then(() => undefined)]);
const connections =
  closed === undefined
    ? "still open at the exit"
    : closed.map((each) => `${(each.atMs - signalled).toFixed(0)} ms (${each.status})`).join(", ");
console.log(
  `SIGTERM to exit ${exitMs.toFixed(0)} ms, exit code ${code}; connections closed at ${connections}; load ${loadavg()[0]?.toFixed(2)}`,
);
