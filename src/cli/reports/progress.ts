import type { Writable } from "node:stream";
import cliProgress from "cli-progress";

import { EVAL_PAGE_SIZE, type EvalProgress } from "../../client/index.js";

/** Reports an eval run's progress as pages complete. */
export interface EvalProgressReporter {
  update(progress: EvalProgress): void;
  /** Ends the bar (if any) so the summary starts on a clean line. */
  stop(): void;
}

/**
 * A progress bar on `stderr` when it is a terminal; otherwise (CI logs, pipes) one plain line per 200 cases,
 * since a bar's carriage returns make a mess of a log file.
 */
export function createEvalProgress(stderr: Writable, total: number): EvalProgressReporter {
  if ((stderr as { isTTY?: boolean }).isTTY !== true) {
    return {
      update: ({ done, total: all }) => {
        // Progress comes case by case; a log gets a line per 200 cases and one at the end.
        if (done % EVAL_PAGE_SIZE === 0 || done === all)
          stderr.write(`verified eval: ${done}/${all} cases scored\n`);
      },
      stop: () => {},
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream: stderr,
      format: "verified eval {bar} {value}/{total} cases | {duration_formatted}",
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    update: ({ done }) => bar.update(done),
    stop: () => bar.stop(),
  };
}
