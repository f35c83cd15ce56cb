import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// docs/performance.md#bounds is the reference of the service's worst-case bounds: every bound that answer mode's
// and the streams' work rests on (issue 34) is named there, and every constant it names is one of the code's.
// Its reference sections state mechanisms and bounds in the present tense; what they take on a machine is a
// dated row of docs/benchmarks.md.

const root = new URL("../", import.meta.url);
const page = readFileSync(new URL("docs/performance.md", root), "utf8");

/** The text of the `## heading` section of the page, up to the next `## `. */
function section(heading: string): string {
  const at = page.indexOf(`\n## ${heading}\n`);
  if (at < 0) throw new Error(`no section ${heading}`);
  const next = page.indexOf("\n## ", at + 1);
  return page.slice(at, next < 0 ? undefined : next);
}

/** Every `const NAME` declared in the production files under src/. */
function sourceConstants(): Set<string> {
  const names = new Set<string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
        for (const match of readFileSync(path, "utf8").matchAll(/\bconst ([A-Z][A-Z0-9_]+)\b/g))
          names.add(match[1] as string);
      }
    }
  };
  walk(new URL("src", root).pathname);
  return names;
}

// The limits, slice sizes and pause runs that bound answer mode's and the streams' work.
const answerModeBounds = [
  // What a request and a result may hold.
  "MAX_ANSWER_CHARS",
  "MAX_ANSWER_CLAIMS",
  "MAX_ANSWER_BEST_SPAN_CHARS",
  "MAX_CITED_SOURCES_PER_CLAUSE",
  "MAX_GATEWAY_RESPONSE_BYTES",
  "MAX_EXPECTED_ANSWERS",
  "MAX_EXPECTED_ANSWER_CHARS",
  "MAX_GUARDRAIL_TEXTS",
  // Slices between turns of the event loop, and the runs after which a reader pauses.
  "CLAIM_CHECK_SLICE_WORK",
  "UNSPACED_STEPS_PER_CHAR",
  "PAUSE_EVERY",
  "WINDOW_CHARS",
  "LINE_RUN_CHARS",
  "REACH_CHARS",
  "COPY_RUN_CHARS",
  "NAMED_DATE_REACH",
  "LONG_LINE",
  // Streams: splitting, cutting, events, chunks, backpressure, offsets.
  "SPLIT_SLICE_STEPS",
  "CUT_SLICE_CHARS",
  "REGROWTH",
  "MIN_SPLIT_GROWTH",
  "STREAM_CHECK_WORK_FACTOR",
  "EVENTS_PER_TURN",
  "CLAIM_READ_SLICE_CHARS",
  "EVAL_ANSWER_CHUNK_CHARS",
  "STREAM_BACKLOG_BYTES",
  "COALESCE_CHARS",
  "OFFSET_CHECKPOINT_UNITS",
  // Shutdown.
  "MAX_SHUTDOWN_GRACE_MS",
];

describe("docs/performance.md#bounds", () => {
  const bounds = section("Bounds");
  const constants = sourceConstants();

  it.each(answerModeBounds)("names %s, a constant of the code", (name) => {
    expect(constants.has(name)).toBe(true);
    expect(bounds).toContain(`\`${name}\``);
  });

  it("names no constant the code does not have", () => {
    const named = [...bounds.matchAll(/`([A-Z][A-Z0-9_]{3,})`/g)].map((match) => match[1] as string);
    expect(named.filter((name) => !constants.has(name))).toEqual([]);
  });
});

describe("docs/performance.md: reference sections hold no timings", () => {
  // A time of a run (`about 50 ms`, `0.4 µs a character`) or the load it ran at; a bound such as "the shutdown
  // timeout plus at most 1 s" is a limit, not a timing.
  const timing = /\d\s?(?:ms|µs)\b|\bload \d/g;
  it.each(["Bounds", "How it is proved", "Keeping the event loop free"])("%s", (heading) => {
    const lines = section(heading)
      .split("\n")
      .filter((line) => line.match(timing) !== null);
    expect(lines).toEqual([]);
  });
});
