// A model that answers 6 MB of nesting (`{"claims": [[[…]]]}` or `{"claims": [{"a": {"a": …}}]}`): the wall
// time and peak RSS of one create, streamed or not, each in a fresh process (bench/support/
// nested-output-request.ts). Both model-output readers refuse the output at its 65th level.
//   npm run bench -- nested-output

import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** Prints one line per output kind and path. */
export default async function run(): Promise<void> {
  console.log(`Load average ${(loadavg()[0] ?? 0).toFixed(1)} before the run.\n`);
  for (const kind of ["arrays", "objects"])
    for (const how of ["stream", "plain"]) {
      const line = execFileSync(
        process.execPath,
        ["--import", "tsx", join(here, "support", "nested-output-request.ts"), kind, how],
        { encoding: "utf8" },
      );
      console.log(`- ${line.trim()}`);
    }
}
