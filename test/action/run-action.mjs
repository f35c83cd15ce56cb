// Runs the composite GitHub Action (action.yml) as a runner would: each `run` step in order, through
// `bash --noprofile --norc -eo pipefail` (what `shell: bash` means), with `${{ inputs.* }}` replaced by the
// inputs given or their defaults, and the runner's files and variables (GITHUB_STEP_SUMMARY, GITHUB_OUTPUT,
// RUNNER_TEMP, GITHUB_ACTION_PATH, GITHUB_WORKSPACE). `uses` steps are the runner's own (setup-node): the
// Node first on PATH stands in. The package is this repository's tarball (`npm pack`; needs a built dist/,
// and npm installs its dependencies from the registry, as test/install/install-check.sh does).
// Checks a passing gate (exit 0, step summary, JUnit and JSON reports, outputs) and a failing one (exit 1),
// the `min-correct` gate both ways, that `answer-format` and `partial` become the eval request's
// `answer_format` and `partial` (seen by a recording proxy in front of the service,
// test/action/recording-service.mjs), that a line break in `junit` or `report` is refused before any output is
// written (no GITHUB_OUTPUT injection), and the default `package: source`, which builds the action's own
// checkout (a copy of this repository; npm may answer from its cache) and runs that.
// Usage: node test/action/run-action.mjs
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const action = parse(readFileSync(join(root, "action.yml"), "utf8"));
const work = mkdtempSync(join(tmpdir(), "verified-action-"));
const failures = [];
const check = (condition, message) => {
  if (!condition) failures.push(message);
};

try {
  check(action.runs?.using === "composite", "action.yml is a composite action");
  const npmrc = join(work, "npmrc");
  writeFileSync(npmrc, "");
  const packed = spawnSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, npm_config_userconfig: npmrc },
  });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const tarball = join(work, packed.stdout.trim().split("\n").at(-1));

  const workspace = join(work, "workspace");
  mkdirSync(workspace);
  const question = [{ role: "user", content: "When are refunds accepted?" }];
  const policy = { id: "policy", text: "Refunds are accepted within 30 days of purchase. 😀" };
  const menu = { id: "menu", text: "Soup of the day: leek. Dessert: tarte tatin." };
  writeFileSync(
    join(workspace, "dataset.jsonl"),
    [
      { id: "refunds", messages: question, sources: [policy], expected: "30 days" },
      { id: "unrelated", messages: question, sources: [menu], expected: "30 days" },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  );
  const runnerTemp = join(work, "runner-temp");
  mkdirSync(runnerTemp);

  const passing = runAction({ dataset: "dataset.jsonl", package: tarball, "min-coverage": "0.4" });
  check(passing.code === 0, `a coverage_mean over the gate passes (exit ${passing.code}): ${passing.stderr}`);
  check(/coverage/i.test(passing.summary), "the step summary holds the Markdown report");
  check(
    readIfExists(join(workspace, "verified-junit.xml")).includes("<testsuite"),
    "a JUnit file is written",
  );
  const report = JSON.parse(readIfExists(join(workspace, "verified-report.json")) || "{}");
  check(report.aggregate?.n === 2, "the JSON report scores both cases");
  check(
    passing.output.includes("junit=verified-junit.xml") &&
      passing.output.includes("report=verified-report.json"),
    "the outputs name the reports",
  );

  const failing = runAction({ dataset: "dataset.jsonl", package: tarball, "min-coverage": "0.9" });
  check(
    failing.code === 1,
    `a coverage_mean under the gate fails the job with exit 1 (exit ${failing.code})`,
  );

  const regressed = runAction({
    dataset: "dataset.jsonl",
    package: tarball,
    baseline: "verified-report.json",
    report: "now.json",
  });
  check(
    regressed.code === 0,
    `the same run against its own baseline has no regression (exit ${regressed.code})`,
  );

  // correct_rate is 0.5: the refunds case holds "30 days" in a grounded claim, the menu case does not.
  const correctEnough = runAction({ dataset: "dataset.jsonl", package: tarball, "min-correct": "0.5" });
  check(correctEnough.code === 0, `correct_rate 0.5 passes min-correct 0.5 (exit ${correctEnough.code})`);
  const notCorrect = runAction({ dataset: "dataset.jsonl", package: tarball, "min-correct": "0.9" });
  check(
    notCorrect.code === 1,
    `correct_rate 0.5 fails min-correct 0.9 with exit 1 (exit ${notCorrect.code})`,
  );
  check(
    /correct_rate 0\.5 < min-correct 0\.9/.test(notCorrect.stdout + notCorrect.stderr),
    "the summary names the failed correctness gate",
  );

  // answer-format and partial reach the eval request: the service behind base-url records each body.
  const bodies = join(work, "bodies.jsonl");
  const service = await startRecordingService(bodies);
  try {
    const prose = runAction({
      dataset: "dataset.jsonl",
      package: tarball,
      "base-url": service.url,
      "answer-format": "text",
      partial: "drop",
    });
    check(prose.code === 0, `a run in prose through base-url passes (exit ${prose.code}): ${prose.stderr}`);
    const plain = runAction({ dataset: "dataset.jsonl", package: tarball, "base-url": service.url });
    check(plain.code === 0, `a run without the inputs through base-url passes (exit ${plain.code})`);
    const evals = readIfExists(bodies)
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line))
      .filter(({ path }) => path === "/v1/verified/eval")
      .map(({ body }) => JSON.parse(body));
    check(evals.length === 2, `each run sent one eval request (${evals.length})`);
    check(
      evals[0]?.answer_format === "text" && evals[0]?.partial === "drop",
      `answer-format text and partial drop are the request's answer_format and partial: ${JSON.stringify({ answer_format: evals[0]?.answer_format, partial: evals[0]?.partial })}`,
    );
    check(
      evals[1] !== undefined && !("answer_format" in evals[1]) && !("partial" in evals[1]),
      "without the inputs the request carries neither field",
    );
  } finally {
    service.stop();
  }
  // On the engine inside the job too; partial without answer-format text is the command's usage error.
  const localProse = runAction({
    dataset: "dataset.jsonl",
    package: tarball,
    "answer-format": "text",
    report: "prose.json",
  });
  check(localProse.code === 0, `a run in prose on the local engine passes (exit ${localProse.code})`);
  check(
    JSON.parse(readIfExists(join(workspace, "prose.json")) || "{}").aggregate?.n === 2,
    "the prose run's JSON report scores both cases",
  );
  const partialAlone = runAction({ dataset: "dataset.jsonl", package: tarball, partial: "drop" });
  check(
    partialAlone.code === 2 && partialAlone.stderr.includes("--partial goes with --answer-format text"),
    `partial without answer-format text fails with exit 2 and says why (exit ${partialAlone.code}): ${partialAlone.stderr}`,
  );

  for (const input of ["junit", "report"]) {
    for (const lineBreak of ["\n", "\r\n", "\r"]) {
      const injected = runAction({
        dataset: "dataset.jsonl",
        package: tarball,
        [input]: `verified-out.xml${lineBreak}injected=owned`,
      });
      check(injected.code === 2, `a line break in ${input} is refused with exit 2 (exit ${injected.code})`);
      check(
        !injected.output.includes("injected") && injected.output === "",
        `a line break in ${input} writes no output at all: ${JSON.stringify(injected.output)}`,
      );
    }
  }

  const fromSource = runAction({ dataset: "dataset.jsonl" });
  check(
    fromSource.code === 0 && fromSource.output.includes("junit=verified-junit.xml"),
    `the default package (source) builds the action's checkout and runs it (exit ${fromSource.code}): ${fromSource.stderr.slice(-2000)}`,
  );

  /** Runs every step with `inputs`; returns the exit code of the first step that failed (0 when none). */
  function runAction(given) {
    const inputs = Object.fromEntries(
      Object.entries(action.inputs).map(([name, spec]) => [name, given[name] ?? String(spec.default ?? "")]),
    );
    for (const [name, spec] of Object.entries(action.inputs)) {
      if (spec.required && !inputs[name]) throw new Error(`input ${name} is required`);
    }
    const expand = (text) =>
      String(text).replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name) => {
        if (!(name in inputs)) throw new Error(`action.yml uses an undeclared input: ${name}`);
        return inputs[name];
      });
    const summary = join(work, `summary-${Math.random().toString(36).slice(2)}.md`);
    const output = join(work, `output-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(summary, "");
    writeFileSync(output, "");
    let code = 0;
    let stderr = "";
    let stdout = "";
    for (const [index, step] of action.runs.steps.entries()) {
      if (step.uses !== undefined) continue;
      check(step.shell === "bash", `step ${index} says shell: bash`);
      const script = join(work, `step-${index}.sh`);
      writeFileSync(script, expand(step.run));
      const env = {
        ...process.env,
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, expand(value)])),
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_OUTPUT: output,
        GITHUB_ACTION_PATH: root,
        GITHUB_WORKSPACE: workspace,
        RUNNER_TEMP: runnerTemp,
        CI: "true",
        npm_config_userconfig: npmrc,
        npm_config_update_notifier: "false",
        npm_config_prefer_offline: "true",
      };
      const run = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
        cwd: workspace,
        env,
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
      });
      code = run.status ?? 1;
      stderr = run.stderr;
      stdout += run.stdout;
      if (code !== 0) break;
    }
    return { code, stderr, stdout, summary: readIfExists(summary), output: readIfExists(output) };
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Starts test/action/recording-service.mjs in a child process: its URL, and `stop()`. */
async function startRecordingService(bodiesFile) {
  const child = spawn(process.execPath, [join(root, "test/action/recording-service.mjs"), bodiesFile], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let seen = "";
    child.stdout.on("data", (chunk) => {
      seen += chunk.toString();
      if (seen.includes("\n")) resolve(seen.split("\n")[0]);
    });
    child.once("exit", (code) =>
      reject(new Error(`recording-service.mjs exited with ${code} before it served`)),
    );
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

function readIfExists(path) {
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

if (failures.length > 0) {
  console.error(`run-action: ${failures.length} check(s) failed:\n- ${failures.join("\n- ")}`);
  process.exit(1);
}
console.log(
  "run-action: the action's steps pass a good gate, fail a bad one, gate on min-correct, pass answer-format and partial, refuse line breaks in outputs and run from source",
);
