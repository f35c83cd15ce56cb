// Every limit of the wire contract, once. The server enforces them, the schemas and OpenAPI describe them,
// and the CLI, the client and the playground import them from here.

/** Cases one eval request may carry (the spec's limit; above it: 400 `too_many_cases`). */
export const MAX_EVAL_CASES = 200;

/**
 * Longest eval case `id` (UTF-16 code units), a string of at least one character or a number: it is echoed
 * back, so it is bounded. The service's schema, the CLI's dataset reader, the client's `evalAll` and the
 * playground's dataset reader all check ids by it.
 */
export const MAX_EVAL_CASE_ID_LENGTH = 256;

/** Largest request body of create and extract, in bytes (4 MiB; above it: 413 `payload_too_large`). */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

/** Largest request body of eval, in bytes (64 MiB: up to 200 cases, each with its own sources). */
export const MAX_EVAL_BODY_BYTES = 64 * 1024 * 1024;

/** Body of `POST /v1/verified/check`: a 4 MiB answer (MAX_ANSWER_CHARS) and its sources. */
export const MAX_CHECK_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Most bytes of a gateway's answer the service reads (8 MiB), a whole body or an event stream: create's calls
 * and the drop-in's verified streams; past it the answer is refused as a `gateway_error`.
 */
export const MAX_GATEWAY_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * Texts one LiteLLM guardrail call may carry (`texts`; above it: 400 naming `texts`): each is an answer
 * checked against the call's sources, indexed once for all of them.
 */
export const MAX_GUARDRAIL_TEXTS = 100;

/** Default total characters of `sources` one create, extract or check may carry (`sources_too_large` above). */
export const DEFAULT_SOURCES_BUDGET = 100_000;

/** Default number of eval cases in flight at once. */
export const DEFAULT_EVAL_CONCURRENCY = 8;

/** Largest `VERIFIED_EVAL_CONCURRENCY` the service accepts. */
export const MAX_EVAL_CONCURRENCY = 1000;

/** Claims one HTTP check request may carry: the core runs on the event loop, so its work per request is bounded. */
export const MAX_CHECK_CLAIMS = 1000;

/** Characters of a plain answer on `POST /v1/verified/check` (answer mode): 4 MiB of text. */
export const MAX_ANSWER_CHARS = 4 * 1024 * 1024;

/**
 * Claims (sentences, list items, table rows) and clauses a plain answer on `POST /v1/verified/check` may
 * hold: each becomes a citation or an unsupported entry, so the count bounds the work and the answer's size.
 */
export const MAX_ANSWER_CLAIMS = 10_000;

/**
 * Characters of best spans (`quote`) the unsupported entries of one plain-answer check carry together (1 MiB):
 * from the first entry whose span would pass it, the rest are listed without their best span (`source`,
 * `quote`, `range`, `support`; claim, reason, `answer_range` and `detail` stay). It bounds the result of a
 * long answer of dropped sentences, each of whose spans may be a thousand or two characters of source: a
 * 4 MiB answer's was 12 MB of JSON. Real answers stay far under it.
 */
export const MAX_ANSWER_BEST_SPAN_CHARS = 1024 * 1024;

/** Largest `retry` of create and eval. */
export const MAX_RETRY = 5;

/** Fields one extract request may ask for. */
export const MAX_EXTRACT_FIELDS = 100;

/** Default interval of the comment heartbeats that keep a streamed answer open through proxies, in ms. */
export const DEFAULT_STREAM_HEARTBEAT_MS = 15_000;

// Limits that bound the time, memory and log bytes one request can cost (docs/reliability-limits.md).

/** Sources one request may carry (create, extract, check), and one eval case; refused before parsing. */
export const MAX_SOURCES_PER_REQUEST = 10_000;

/**
 * JSON values (objects, arrays, strings, numbers, literals) one body may hold, counted before parsing: it
 * bounds what `JSON.parse` allocates (200 cases of 1,000 sources are about 600,000 values).
 */
export const MAX_JSON_VALUES = 2_000_000;

/**
 * How deeply a model's JSON output may nest (objects and arrays): the output contract needs 3 levels. Both
 * model-output readers (the whole reply, and the stream) refuse deeper output before parsing it, so a reply
 * of millions of `[` costs one linear scan, not a parser's stack.
 */
export const MAX_MODEL_JSON_DEPTH = 64;

/**
 * JSON values (objects, arrays, strings, and the commas between values) a model's JSON output may hold,
 * counted before parsing: it bounds what parsing allocates. 500,000 is over 100,000 claims.
 */
export const MAX_MODEL_JSON_VALUES = 500_000;

/** The largest serve config file read (bytes); a larger one, or anything but a regular file, is refused. */
export const MAX_CONFIG_FILE_BYTES = 1_048_576;

/** Default of VERIFIED_REQUEST_TIMEOUT_MS: the whole request must arrive within it, else 408. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Default of VERIFIED_SHUTDOWN_TIMEOUT_MS: how long SIGTERM lets requests in flight finish. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 25_000;

/**
 * Default of VERIFIED_SHUTDOWN_DELAY_MS: how long SIGTERM keeps the service taking requests with `/readyz`
 * at 503 before the drain, so load balancers stop routing first. None by default (a local run exits at once).
 */
export const DEFAULT_SHUTDOWN_DELAY_MS = 0;

/**
 * After the shutdown deadline, answers being written get at most this long before every connection left is
 * destroyed: a process exits within VERIFIED_SHUTDOWN_TIMEOUT_MS plus this, whatever clients do.
 */
export const MAX_SHUTDOWN_GRACE_MS = 1_000;

/** The largest `Retry-After` (seconds) forwarded from a gateway; larger values are clamped to it. */
export const MAX_RETRY_AFTER_SECONDS = 3_600;

/** Characters of any request string (model id, field name) quoted in a log line or an error message. */
export const MAX_QUOTED_REQUEST_CHARS = 200;

/** Characters of the latest user message the built-in local model reads for its terms (create, eval). */
export const MAX_LOCAL_QUESTION_CHARS = 2_000;

/** Characters of an extract field's name and of its description the built-in local model reads. */
export const MAX_LOCAL_FIELD_TEXT_CHARS = 200;

/**
 * `verified check --jsonl` keeps the sources of recent documents prepared (tokens, tables, label automaton)
 * while they total at most this many characters, so lines citing the same source reuse them.
 */
export const JSONL_PREPARED_SOURCE_CHARS = 2_000_000;

/** Cells a number-check explanation lists (the cells a failing number was checked against), at most. */
export const MAX_EXPLAIN_CELLS = 12;

/** Characters of a quoted line or quote a number-check explanation shows, at most. */
export const MAX_EXPLAIN_TEXT_CHARS = 300;

/**
 * Estimated work (characters of cited source, quote and claim) the service checks claims for between two
 * turns of the event loop: about 20–50 ms of matching on this 2-core machine, so `/healthz` and other
 * requests are answered while a request of 1,000 claims against a large source is checked.
 */
export const CLAIM_CHECK_SLICE_WORK = 1_000_000;

/**
 * Bytes of a request body, or characters of a model's reply, from which each pass over it (scan, parse)
 * starts from a turn of the event loop of its own (1 MiB), so the passes over a large text never add up in
 * one block.
 */
export const OWN_TURN_TEXT_CHARS = 1024 * 1024;

/**
 * Characters of a model's claims reply the claims reader (`createClaimStreamReader`) reads between two turns of
 * the event loop (64 Ki, what a socket delivers in one read): a reply handed over in one piece (a streamed delta
 * of megabytes, a local model's whole reply, a reply read again whole) is read a slice at a time, so its reading
 * never holds the loop for a time that grows with its size.
 */
export const CLAIM_READ_SLICE_CHARS = 64 * 1024;

/**
 * What the row number check reads for one claim, at most: this many units plus `ROW_READS_PER_CLAIM_CHAR`
 * per claim character (a unit is a label ending at a place in the claim, a table a label names there, a
 * claim character a kept occurrence covers, or an occurrence or number read in a table). A claim that needs
 * more (only a generated one: labels named at every word of thousands of tables) is dropped with
 * `number_not_found` rather than read further. Real claims use a few hundred. Per claim, not per request:
 * a claim's verdict never depends on the other claims, and 1,000 claims may each use their own.
 */
export const ROW_READS_PER_CLAIM = 2_000;

/** Units of `ROW_READS_PER_CLAIM` added per character of the claim. */
export const ROW_READS_PER_CLAIM_CHAR = 2;

/** Acceptable answers one eval case's `expected` may list: each is searched in every grounded claim. */
export const MAX_EXPECTED_ANSWERS = 20;

/**
 * Characters of one expected answer, at most: an expected answer is a short fact (a name, a number, a
 * phrase), and each is searched in every grounded claim of its case, so its length bounds that work.
 */
export const MAX_EXPECTED_ANSWER_CHARS = 1_000;

/**
 * Characters of JSON the create-style `result`s of one eval answer (`details: true`) hold together, at most
 * (32 MiB). Each case has an equal share (167,772 characters each at 200 cases): a scored case whose result's
 * JSON is longer than its share carries `result_omitted: "details_budget"` instead. It bounds what an eval
 * keeps of the gateway's answers until it answers, and the size of that answer, whatever the model wrote.
 */
export const MAX_EVAL_DETAILS_CHARS = 32 * 1024 * 1024;

/**
 * Characters of an eval's JSON answer (or of a streamed eval's `done` event) serialized between two turns of
 * the event loop: the answer is written case by case, so a large answer never holds the loop for long. A check
 * of a plain answer longer than this is written the same way, entry by entry.
 */
export const EVAL_ANSWER_CHUNK_CHARS = 1024 * 1024;

/**
 * Bytes a streamed answer may hold written but not yet taken by its caller before its next claim event (a
 * prose answer's or a claims call's) or chunk (`done`, `error`) waits for the caller: a slow reader holds back
 * the work instead of the answer's events piling up. Waiting at every high-water mark (16 KiB), or after every 1 MiB chunk of `done`,
 * costs a wait (and a longer stream) per few events or per chunk.
 */
export const STREAM_BACKLOG_BYTES = 4 * 1024 * 1024;

/**
 * Characters of `claim` and `unsupported` events' JSON a streamed create keeps until its `done` (or `ungrounded`
 * error), which lists the same entries: an entry equal to an event's is written with that event's JSON instead
 * of being serialised again. Past this many, later events are not kept (their entries are serialised anew):
 * a stream's events can be far longer than its answer (each clause's event repeats its claim).
 */
export const STREAM_KEPT_EVENT_CHARS = 16 * 1024 * 1024;
