// `npm start`: serves from dist/ when the build is current, and rebuilds first only when it is not.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildFreshness } from "./build-freshness.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const freshness = buildFreshness(root);
if (!freshness.current) {
  process.stderr.write(`verified: building first (${freshness.reason})\n`);
  const build = spawnSync("npm", ["run", "build"], {
    cwd: root,
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
} else {
  process.stderr.write("verified: the build is current; starting from dist/\n");
}
const serve = spawnSync(process.execPath, ["dist/cli/main.js", "serve", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
process.exit(serve.status ?? 1);
