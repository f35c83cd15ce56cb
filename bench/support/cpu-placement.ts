import { execFileSync } from "node:child_process";
import { cpus } from "node:os";

/**
 * Where the processes of a benchmark run. On a 2-core machine the service gets core 1 to itself and the
 * load side (load generator and instant gateway) shares core 0, so neither steals the other's CPU. Without
 * `taskset` or with fewer than 2 cores nothing is pinned, and the tables say so.
 */
export interface CpuPlacement {
  /** Prefix for spawning the service (`taskset -c 1`), or none. */
  serviceCommand: string[];
  /** Prefix for spawning the gateway (`taskset -c 0`), or none. */
  loadCommand: string[];
  /** Pins this process (the load generator) to the load core; returns the undo. */
  pinSelf(): () => void;
  /** One line for the table's caption. */
  description: string;
}

function hasTaskset(): boolean {
  try {
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The split placement described above when it is possible, else none; `pinned: false` asks for none. */
export function cpuPlacement(pinned = true): CpuPlacement {
  const cores = cpus().length;
  if (!pinned || cores < 2 || !hasTaskset()) {
    return {
      serviceCommand: [],
      loadCommand: [],
      pinSelf: () => () => undefined,
      description: `${cores} cores, processes not pinned (the OS scheduler places service, gateway and load generator)`,
    };
  }
  const last = String(cores - 1);
  return {
    serviceCommand: ["taskset", "-c", last],
    loadCommand: ["taskset", "-c", "0"],
    pinSelf() {
      const self = String(process.pid);
      const before = execFileSync("taskset", ["-cp", self], { encoding: "utf8" }).split(":").at(-1)?.trim();
      execFileSync("taskset", ["-a", "-cp", "0", self], { stdio: "ignore" });
      return () => {
        if (before) execFileSync("taskset", ["-a", "-cp", before, self], { stdio: "ignore" });
      };
    },
    description: `${cores} cores; service pinned to core ${last}, load generator and instant gateway to core 0 (taskset)`,
  };
}
