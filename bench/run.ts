// Runs every benchmark in bench/*.bench.ts, or only those whose names contain the arguments:
//   npm run bench                 all of them
//   npm run bench -- core-speed   only bench/core-speed.bench.ts
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort();

if (files.length === 0) {
  console.error(`No benchmark matches ${filters.join(", ")}.`);
  process.exit(2);
}
// Figures differ between Node lines (V8 versions); say which one ran them. The project supports 22 and 24:
// run `PATH=/path/to/node22/bin:$PATH npm run bench` to measure on a supported line when the host's is older.
console.log(`Node.js ${process.versions.node}`);
for (const file of files) {
  console.log(`\n## ${file.replace(/\.bench\.ts$/, "")}\n`);
  const module = (await import(pathToFileURL(join(here, file)).href)) as { default: () => Promise<void> };
  await module.default();
}
