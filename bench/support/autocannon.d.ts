// The part of autocannon 8's programmatic API the benchmarks use (the package ships no types).
declare module "autocannon" {
  /** hdr-histogram-percentiles-obj: latency in ms, requests and throughput per second. */
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  interface Options {
    url: string;
    method?: "GET" | "POST";
    headers?: Record<string, string>;
    body?: string | Buffer;
    connections?: number;
    /** Seconds. */
    duration?: number;
    amount?: number;
    pipelining?: number;
    /** Seconds. */
    timeout?: number;
    /** Each response body; a falsy return counts as a mismatch. */
    verifyBody?: (body: string) => boolean;
  }

  interface Result {
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
  }

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
