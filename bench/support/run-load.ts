import { readFileSync } from "node:fs";
import autocannon from "autocannon";

/** One autocannon run's figures; it throws unless every response was a 2xx that passed `verify`. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  responses: number;
  /** CPU time (user + system) the service's processes used per answered request, in ms. */
  serviceCpuMsPerRequest: number | undefined;
}

/** CPU time used so far by `pids` (Linux /proc), in ms; undefined elsewhere. */
export function cpuTimeMs(pids: readonly number[]): number | undefined {
  try {
    let ticks = 0;
    for (const pid of pids) {
      // Fields after the command name (which may hold spaces): utime and stime are fields 14 and 15.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    // USER_HZ is 100 on every Linux Node supports.
    return ticks * 10;
  } catch {
    return undefined;
  }
}

/** Runs autocannon against `url` for `seconds` with `connections`, POSTing `body`. */
export async function runLoad(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  verify: (body: string) => boolean;
  /** Processes whose CPU time is divided by the responses. */
  servicePids?: readonly number[];
}): Promise<LoadResult> {
  const pids = options.servicePids ?? [];
  const cpuBefore = cpuTimeMs(pids);
  const result = await autocannon({
    url: options.url,
    method: "POST",
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: options.seconds,
    timeout: 30,
    verifyBody: options.verify,
  });
  const cpuAfter = cpuTimeMs(pids);
  if (result.errors > 0 || result.non2xx > 0 || result.mismatches > 0) {
    throw new Error(
      `load run failed: ${result.errors} errors (${result.timeouts} timeouts), ${result.non2xx} non-2xx, ` +
        `${result.mismatches} wrong bodies; statuses ${JSON.stringify(result.statusCodeStats)}`,
    );
  }
  const responses = result["2xx"];
  return {
    requestsPerSecond: responses / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    responses,
    serviceCpuMsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || responses === 0
        ? undefined
        : (cpuAfter - cpuBefore) / responses,
  };
}
