// Every limit of the wire contract, once. The server enforces them, the schemas and OpenAPI describe them,
// and the CLI, the client and the playground import them from here.

/** Cases one eval request may carry (the spec's limit; above it: 400 `too_many_cases`). */
export const MAX_EVAL_CASES = 200;

/** Default total characters of `sources` one create, extract or check may carry (`sources_too_large` above). */
export const DEFAULT_SOURCES_BUDGET = 100_000;

/** Default number of eval cases in flight at once. */
export const DEFAULT_EVAL_CONCURRENCY = 8;

/** Largest `VERIFIED_EVAL_CONCURRENCY` the service accepts. */
export const MAX_EVAL_CONCURRENCY = 1000;

/** Claims one HTTP check request may carry: the core runs on the event loop, so its work per request is bounded. */
export const MAX_CHECK_CLAIMS = 1000;

/** Largest `retry` of create and eval. */
export const MAX_RETRY = 5;

/** Fields one extract request may ask for. */
export const MAX_EXTRACT_FIELDS = 100;

/** Default interval of the comment heartbeats that keep a streamed answer open through proxies, in ms. */
export const DEFAULT_STREAM_HEARTBEAT_MS = 15_000;
