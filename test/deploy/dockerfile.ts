// A reader for the subset of Dockerfile syntax the project's Dockerfile uses, so tests can run its commands.
// Anything else is an error, so a new instruction cannot slip past the tests unread.

/** One instruction a test acts on. */
export type DockerInstruction =
  | { kind: "WORKDIR"; path: string }
  | { kind: "ENV"; values: Record<string, string> }
  | { kind: "COPY"; from?: string; sources: string[]; destination: string }
  | { kind: "RUN"; command: string };

/** A build stage: its instructions in order, and what the image keeps from it. */
export interface DockerStage {
  name: string;
  base: string;
  instructions: DockerInstruction[];
  env: Record<string, string>;
  workdir: string;
  user: string | undefined;
  expose: number[];
  entrypoint: string[];
  cmd: string[];
  /** The HEALTHCHECK's command (exec form). */
  healthcheck: string[];
}

function execForm(text: string, line: string): string[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every((each) => typeof each === "string")) {
    throw new Error(`Expected the exec (JSON array) form: ${line}`);
  }
  return parsed;
}

/** Reads a Dockerfile into its stages; throws on an instruction it does not know. */
export function parseDockerfile(text: string): DockerStage[] {
  const lines = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const stages: DockerStage[] = [];
  for (const line of lines) {
    const space = line.indexOf(" ");
    const keyword = line.slice(0, space).toUpperCase();
    const rest = line.slice(space + 1).trim();
    if (keyword === "FROM") {
      const [base, as, name] = rest.split(/\s+/);
      if (base === undefined || as?.toUpperCase() !== "AS" || name === undefined) {
        throw new Error(`Every stage needs a name: ${line}`);
      }
      stages.push({
        name,
        base,
        instructions: [],
        env: {},
        workdir: "/",
        user: undefined,
        expose: [],
        entrypoint: [],
        cmd: [],
        healthcheck: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (stage === undefined) throw new Error(`An instruction before FROM: ${line}`);
    if (keyword === "WORKDIR") {
      stage.workdir = rest;
      stage.instructions.push({ kind: "WORKDIR", path: rest });
    } else if (keyword === "ENV") {
      const values: Record<string, string> = {};
      for (const pair of rest.split(/\s+/)) {
        const equals = pair.indexOf("=");
        if (equals < 1) throw new Error(`ENV must read NAME=value: ${line}`);
        values[pair.slice(0, equals)] = pair.slice(equals + 1);
      }
      Object.assign(stage.env, values);
      stage.instructions.push({ kind: "ENV", values });
    } else if (keyword === "COPY") {
      const words = rest.split(/\s+/);
      const from = words[0]?.startsWith("--from=") ? words.shift()?.slice("--from=".length) : undefined;
      const destination = words.pop();
      if (destination === undefined || words.length === 0) throw new Error(`COPY needs a source: ${line}`);
      stage.instructions.push({
        kind: "COPY",
        ...(from === undefined ? {} : { from }),
        sources: words,
        destination,
      });
    } else if (keyword === "RUN") {
      stage.instructions.push({ kind: "RUN", command: rest });
    } else if (keyword === "USER") {
      stage.user = rest;
    } else if (keyword === "EXPOSE") {
      stage.expose = rest.split(/\s+/).map(Number);
    } else if (keyword === "ENTRYPOINT") {
      stage.entrypoint = execForm(rest, line);
    } else if (keyword === "CMD") {
      stage.cmd = execForm(rest, line);
    } else if (keyword === "HEALTHCHECK") {
      const command = rest.indexOf("CMD [");
      if (command < 0) throw new Error(`HEALTHCHECK must use CMD in exec form: ${line}`);
      stage.healthcheck = execForm(rest.slice(command + "CMD ".length), line);
    } else {
      throw new Error(`An instruction the tests do not read: ${line}`);
    }
  }
  return stages;
}
