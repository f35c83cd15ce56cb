// The service on the local model (this repository's dist/) behind a proxy that appends each request's body, one
// JSON line per request, to the file named by its first argument: run-action.mjs reads it to see which fields
// the action's inputs put into the eval request. Prints the proxy's URL on its first line; SIGTERM stops it.
// Usage: node test/action/recording-service.mjs BODIES_FILE
import { appendFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { createModelBackend } from "../../dist/models/create-model.js";
import { createApp } from "../../dist/server/app.js";
import { defaultServerConfig } from "../../dist/server/config.js";

const bodiesFile = process.argv[2];
if (bodiesFile === undefined) throw new Error("usage: recording-service.mjs BODIES_FILE");

const app = await createApp({
  gateway: createModelBackend({ gatewayURL: undefined, gatewayHeaders: {}, gatewayTimeoutMs: 5_000 }),
  config: defaultServerConfig,
  logger: false,
});
const target = new URL(await app.listen({ host: "127.0.0.1", port: 0 }));

const proxy = createServer((incoming, outgoing) => {
  const chunks = [];
  incoming.on("data", (chunk) => chunks.push(chunk));
  incoming.on("end", () => {
    const body = Buffer.concat(chunks);
    appendFileSync(bodiesFile, `${JSON.stringify({ path: incoming.url, body: body.toString("utf8") })}\n`);
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.writeHead(502).end());
    forwarded.end(body);
  });
});
proxy.listen(0, "127.0.0.1", () => {
  const address = proxy.address();
  console.log(`http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`);
});
process.once("SIGTERM", () => {
  proxy.close();
  void app.close().then(() => process.exit(0));
});
