import { type Static, type TSchema, Type } from "@sinclair/typebox";
import {
  MAX_ANSWER_BEST_SPAN_CHARS,
  MAX_ANSWER_CHARS,
  MAX_CHECK_CLAIMS,
  MAX_EVAL_CASE_ID_LENGTH,
  MAX_EVAL_CASES,
  MAX_EVAL_DETAILS_CHARS,
  MAX_EXPECTED_ANSWER_CHARS,
  MAX_EXPECTED_ANSWERS,
  MAX_EXTRACT_FIELDS,
  MAX_RETRY,
} from "../limits.js";

// One schema per wire shape: validation, TypeScript types and the OpenAPI document all come from here.
// Objects are closed (additionalProperties: false) so a misspelt option is an error, not a silent default.

const closed = { additionalProperties: false } as const;

export const SourceSchema = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      description: "Chosen by the caller; echoed back in citations as `source`.",
    }),
    text: Type.String({ description: "Source text that is matched against." }),
  },
  closed,
);

export const MessageSchema = Type.Object(
  {
    role: Type.Union([Type.Literal("system"), Type.Literal("user"), Type.Literal("assistant")]),
    content: Type.String(),
  },
  closed,
);

export const ModeSchema = Type.Union([Type.Literal("strict"), Type.Literal("lenient")], {
  description:
    "`strict` (default) is boundary-exact; `lenient` compares word tokens, ignoring case and punctuation.",
});

export const CheckNumbersSchema = Type.Union(
  [Type.Boolean(), Type.Literal("source"), Type.Literal("row"), Type.Literal("quote")],
  {
    description:
      "Numbers in a claim must appear in its source (`true`/`source`), in the named table cell (`row`) or in the claim's own quote (`quote`).",
  },
);

/**
 * Any field name. TypeBox's `Type.String()` record key compiles to `^(.*)$`, whose `.` does not match line
 * terminators, and a key that matches no pattern is not validated at all: `{"a\nb": false}` would pass.
 */
const anyKey = Type.String({ pattern: "^[\\s\\S]*$" });

const model = Type.String({
  minLength: 1,
  description: "`local` for the built-in model, or any gateway model id.",
});
const sources = Type.Array(SourceSchema, { description: "The caller's own chunks." });
const messages = Type.Array(MessageSchema, { minItems: 1 });
const minCoverage = Type.Number({
  minimum: 0,
  maximum: 1,
  description: "`abstained` is true below it. 0 is off.",
});
const retry = Type.Integer({
  minimum: 0,
  maximum: MAX_RETRY,
  description: "Regenerate up to N more times while any claim is unsupported.",
});

/** Answer mode: what a partially supported claim becomes. */
export const PartialPolicySchema = Type.Union([Type.Literal("keep"), Type.Literal("drop")], {
  description:
    "Answer mode: a claim whose checks pass but whose spans lack some of its content words is partially supported. `keep` (default) keeps it and lists each such word in `partial` with its `answer_range`; `drop` removes it as `partial_support`. See docs/matching.md#answers.",
});

const answerFormat = Type.Union([Type.Literal("json"), Type.Literal("text")], {
  description:
    "`json` (default): the model answers with claims and quotes. `text`: the model answers in prose with `[id]` markers, checked sentence by sentence as an answer (see `answer` of check).",
});

const offsets = Type.Union([Type.Literal("utf16"), Type.Literal("codepoint"), Type.Literal("utf8")], {
  description:
    "The unit every `range` of the answer counts: `utf16` code units (default; JavaScript's string index), `codepoint` (Python's `str` index) or `utf8` bytes.",
});

const explain = Type.Boolean({
  description:
    'Give each claim dropped by the number check a `detail`: the number that failed and the cells, line or quote it was checked against. In answer mode (check\'s `answer`, `answer_format: "text"`) every dropped claim says why in `detail`: the name, quotation, marker or words that failed.',
});

export const CreateRequestSchema = Type.Object(
  {
    model,
    messages,
    sources,
    mode: Type.Optional(ModeSchema),
    min_coverage: Type.Optional(minCoverage),
    retry: Type.Optional(retry),
    check_numbers: Type.Optional(CheckNumbersSchema),
    explain: Type.Optional(explain),
    offsets: Type.Optional(offsets),
    allow_ungrounded: Type.Optional(Type.Boolean()),
    answer_format: Type.Optional(answerFormat),
    partial: Type.Optional(PartialPolicySchema),
    temperature: Type.Optional(Type.Number({ minimum: 0, description: "Passed through to the gateway." })),
    max_tokens: Type.Optional(Type.Integer({ minimum: 1, description: "Passed through to the gateway." })),
    stream: Type.Optional(
      Type.Boolean({
        description:
          "Answer `text/event-stream`: `claim` and `unsupported` events as each claim is checked, `attempt` when a retry starts, then `done` (the result) or `error` (the error body). See docs/streaming.md.",
      }),
    ),
  },
  closed,
);
export type CreateRequest = Static<typeof CreateRequestSchema>;

export const ExtractRequestSchema = Type.Object(
  {
    model,
    sources,
    schema: Type.Record(anyKey, Type.String({ minLength: 1 }), {
      minProperties: 1,
      maxProperties: MAX_EXTRACT_FIELDS,
      description: `Field name mapped to a short, concrete description of the wanted value (1 to ${MAX_EXTRACT_FIELDS} fields).`,
    }),
    mode: Type.Optional(ModeSchema),
    offsets: Type.Optional(offsets),
  },
  closed,
);
export type ExtractRequest = Static<typeof ExtractRequestSchema>;

/**
 * An eval case's `id`: a string of 1 to MAX_EVAL_CASE_ID_LENGTH characters, or a number (datasets often
 * number their cases), echoed back in the case's result as a string.
 */
export const EvalCaseIdSchema = Type.Union(
  [Type.String({ minLength: 1, maxLength: MAX_EVAL_CASE_ID_LENGTH }), Type.Number()],
  {
    description: `The caller's name for the case: 1 to ${MAX_EVAL_CASE_ID_LENGTH} characters, or a number; echoed back in its result as a string.`,
  },
);

const expectedAnswer = Type.String({ minLength: 1, maxLength: MAX_EXPECTED_ANSWER_CHARS });

/** An eval case's acceptable answers: one string or a list of them (docs/evals.md). */
export const ExpectedAnswersSchema = Type.Union(
  [expectedAnswer, Type.Array(expectedAnswer, { minItems: 1, maxItems: MAX_EXPECTED_ANSWERS })],
  {
    description: `An acceptable answer (at most ${MAX_EXPECTED_ANSWER_CHARS.toLocaleString("en-US")} characters), or a list of 1 to ${MAX_EXPECTED_ANSWERS}: the case is \`correct\` when one of them occurs in a grounded claim (case, punctuation and thousands separators ignored; numbers compared by value).`,
  },
);

export const EvalCaseSchema = Type.Object(
  { id: Type.Optional(EvalCaseIdSchema), messages, sources, expected: Type.Optional(ExpectedAnswersSchema) },
  closed,
);

export const EvalRequestSchema = Type.Object(
  {
    model,
    mode: Type.Optional(ModeSchema),
    cases: Type.Array(EvalCaseSchema, { minItems: 1, description: `1 to ${MAX_EVAL_CASES} cases.` }),
    check_numbers: Type.Optional(CheckNumbersSchema),
    retry: Type.Optional(retry),
    min_coverage: Type.Optional(minCoverage),
    answer_format: Type.Optional(answerFormat),
    partial: Type.Optional(PartialPolicySchema),
    explain: Type.Optional(
      Type.Boolean({
        description:
          "As for create: each dropped claim of a case's `result` (with `details`) says why in `detail`.",
      }),
    ),
    offsets: Type.Optional(offsets),
    details: Type.Optional(
      Type.Boolean({
        description:
          "When true, each scored case also carries `result`: its create-style text, citations and unsupported claims; a result longer than the case's share of the details budget is replaced by `result_omitted`.",
      }),
    ),
    stream: Type.Optional(
      Type.Boolean({
        description:
          "Answer `text/event-stream`: a `case` event as each case finishes, then `done` (the result) or `error`. See docs/streaming.md.",
      }),
    ),
  },
  closed,
);
export type EvalRequest = Static<typeof EvalRequestSchema>;

export const CandidateClaimSchema = Type.Object(
  {
    claim: Type.Optional(Type.String()),
    quote: Type.String(),
    source: Type.String(),
  },
  closed,
);

const answer = Type.String({
  maxLength: MAX_ANSWER_CHARS,
  description: `A plain answer with citation markers (\`[1]\`, \`[doc-a]\`, \`[^1]\`, \`【4:0†name】\`, \`(source: id)\`) to check claim by claim; send it instead of \`claims\`. Up to ${MAX_ANSWER_CHARS.toLocaleString("en-US")} characters. See docs/matching.md.`,
});

const checkFields = {
  sources,
  claims: Type.Optional(Type.Array(CandidateClaimSchema)),
  answer: Type.Optional(answer),
  messages: Type.Optional(
    Type.Array(MessageSchema, {
      description:
        "With `answer`: the conversation. Words of the user's messages are context, not new facts.",
    }),
  ),
  mode: Type.Optional(ModeSchema),
  check_numbers: Type.Optional(CheckNumbersSchema),
  explain: Type.Optional(explain),
  offsets: Type.Optional(offsets),
  partial: Type.Optional(PartialPolicySchema),
};

/** A `verified check` document: no bound on claims, since the command owns its process. */
export const CheckDocumentSchema = Type.Object(checkFields, closed);

export const CheckRequestSchema = Type.Object(
  {
    ...checkFields,
    claims: Type.Optional(
      Type.Array(CandidateClaimSchema, {
        maxItems: MAX_CHECK_CLAIMS,
        description: `Up to ${MAX_CHECK_CLAIMS} claims; the check runs on the event loop, so the count is bounded. Send \`claims\` or \`answer\`, not both.`,
      }),
    ),
  },
  closed,
);
export type CheckRequest = Static<typeof CheckRequestSchema>;

export const CheckFieldsRequestSchema = Type.Object(
  {
    sources,
    fields: Type.Record(
      anyKey,
      Type.Object(
        {
          value: Type.Optional(Type.Union([Type.String(), Type.Null()])),
          source: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        },
        closed,
      ),
    ),
    mode: Type.Optional(ModeSchema),
    offsets: Type.Optional(offsets),
  },
  closed,
);
export type CheckFieldsRequest = Static<typeof CheckFieldsRequestSchema>;

// Responses.

const range = Type.Tuple([Type.Integer(), Type.Integer()], {
  description:
    "[start, end) into the source's text, in the request's `offsets` unit (UTF-16 code units by default); the text between them is the quote.",
});

const answerRange = Type.Tuple([Type.Integer(), Type.Integer()], {
  description: "Answer mode: [start, end) of the claim in the answer, its markers included.",
});
const support = Type.Number({
  minimum: 0,
  maximum: 1,
  description: "Answer mode: the share of the claim's content words that the quoted span holds.",
});

export const CitationSchema = Type.Object({
  claim: Type.String(),
  quote: Type.String(),
  source: Type.String(),
  range,
  support: Type.Optional(support),
  answer_range: Type.Optional(answerRange),
});

export const NumberMissSchema = Type.Object(
  {
    number: Type.String({ description: "The claim's number that failed, as the claim writes it." }),
    checked: Type.Union([
      Type.Literal("cells"),
      Type.Literal("line"),
      Type.Literal("quote"),
      Type.Literal("source"),
    ]),
    cells: Type.Optional(
      Type.Array(Type.Object({ row: Type.String(), column: Type.String(), text: Type.String() }), {
        description:
          "With `cells`: the table cells (row label, column header, text) the number was checked against. Empty when no cell was checked: the table named has no body rows, or the claim names table labels more often than the row check reads (docs/number-checks.md).",
      }),
    ),
    text: Type.Optional(Type.String({ description: "With `line` or `quote`: the text checked." })),
    seen: Type.Optional(
      Type.String({
        description:
          "Answer mode: the source sentence that holds the number, outside the spans that support the claim (a number counts only where the claim's support holds it).",
      }),
    ),
  },
  { description: "With number_not_found: the number that failed and what it was checked against." },
);

export const AnswerMissSchema = Type.Object(
  {
    found_in: Type.Optional(
      Type.Array(Type.String(), {
        description: "With wrong_source (always): the sources that do support the claim.",
      }),
    ),
    words: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "With no_support: the claim's content words its best span lacks; with partial_support: the words its spans lack.",
      }),
    ),
    entity: Type.Optional(Type.String({ description: "With entity_not_found: the name no source holds." })),
    quotation: Type.Optional(Type.String({ description: "With quote_not_found: the quotation not found." })),
    differs_only_in: Type.Optional(
      Type.Union([Type.Literal("first_letter_case"), Type.Literal("case")], {
        description:
          "With quote_not_found in strict mode: the cited source holds the quotation with only the case of its first letter (`first_letter_case`) or of its letters (`case`) different; lenient mode keeps it.",
      }),
    ),
    source_text: Type.Optional(
      Type.String({ description: "With `differs_only_in`: the quotation as the source writes it." }),
    ),
    marker: Type.Optional(
      Type.String({ description: "With unknown_source: the marker that names no source." }),
    ),
  },
  { description: "Answer mode: why a claim was dropped." },
);

export const UnsupportedClaimSchema = Type.Object({
  claim: Type.String(),
  reason: Type.Union([
    Type.Literal("quote_not_found"),
    Type.Literal("unknown_source"),
    Type.Literal("number_not_found"),
    Type.Literal("no_support"),
    Type.Literal("partial_support"),
    Type.Literal("entity_not_found"),
    Type.Literal("wrong_source"),
  ]),
  detail: Type.Optional(Type.Union([NumberMissSchema, AnswerMissSchema])),
  answer_range: Type.Optional(answerRange),
  quote: Type.Optional(
    Type.String({
      description: `Claims: the quote the model tried, as it wrote it (absent when it gave none). Answer mode: the claim's best span, if any (the best spans of one answer's unsupported claims total at most ${MAX_ANSWER_BEST_SPAN_CHARS.toLocaleString("en-US")} characters; later ones have none).`,
    }),
  ),
  source: Type.Optional(
    Type.String({
      description:
        "Claims: the source id the model named, as it wrote it (absent when it named none). Answer mode: the source of the claim's best span, if any.",
    }),
  ),
  range: Type.Optional(range),
  support: Type.Optional(support),
  near: Type.Optional(
    Type.Object(
      {
        quote: Type.String({ description: "The source's text at `range`." }),
        range,
      },
      {
        description:
          "With `quote_not_found` in strict mode: where the named source holds the quote under lenient matching (case, punctuation or spacing differ). Absent when lenient matching finds it nowhere either.",
      },
    ),
  ),
});

/** A prose answer (`answer_format: "text"`) as the model wrote it: what its `answer_range`s count into. */
const proseAnswer = () =>
  Type.String({
    description:
      "With `answer_format: \"text\"`: the model's answer as written, before its unsupported sentences were removed; every `answer_range` (and each `partial` word's) counts into it, so an app can show the answer with each sentence and word marked. `text` is this answer with the dropped sentences removed.",
  });

/** Answer mode: a content word of a kept, partially supported claim that none of its spans holds. */
const partialTerms = () =>
  Type.Array(PartialTermSchema, {
    description:
      "Answer mode: each content word of a kept, partially supported claim that none of its spans holds, with its place in the answer (empty when every kept claim is fully supported; absent for claims with quotes).",
  });

export const PartialTermSchema = Type.Object({
  claim: Type.String({ description: "The kept claim the word belongs to." }),
  term: Type.String({ description: "The word as the answer writes it." }),
  answer_range: answerRange,
});

export const UsageSchema = Type.Object({
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
  model_calls: Type.Integer(),
});

export const CreateResultSchema = Type.Object({
  id: Type.String(),
  model: Type.String(),
  text: Type.String(),
  citations: Type.Array(CitationSchema),
  unsupported: Type.Array(UnsupportedClaimSchema),
  partial: Type.Optional(partialTerms()),
  answer: Type.Optional(proseAnswer()),
  coverage: Type.Number(),
  abstained: Type.Boolean(),
  grounded: Type.Boolean(),
  usage: UsageSchema,
});
export type CreateResult = Static<typeof CreateResultSchema>;

/** A field found verbatim (with its source and range), or not found (null, with the reason). */
export const FieldResultSchema = Type.Union([
  Type.Object({ value: Type.String(), source: Type.String(), range, grounded: Type.Literal(true) }),
  Type.Object({ value: Type.Null(), grounded: Type.Literal(false), reason: Type.Literal("not_found") }),
]);

export const ExtractResultSchema = Type.Object({
  id: Type.String(),
  model: Type.String(),
  fields: Type.Record(Type.String(), FieldResultSchema),
  coverage: Type.Number(),
  usage: UsageSchema,
});
export type ExtractResult = Static<typeof ExtractResultSchema>;

export const CaseErrorSchema = Type.Object({
  type: Type.String(),
  code: Type.String(),
  message: Type.String(),
});

/** A case's create-style result, present when the eval request asked for `details`. */
export const EvalCaseDetailsSchema = Type.Object({
  text: Type.String(),
  citations: Type.Array(CitationSchema),
  unsupported: Type.Array(UnsupportedClaimSchema),
  partial: Type.Optional(partialTerms()),
  answer: Type.Optional(proseAnswer()),
  coverage: Type.Number(),
  abstained: Type.Boolean(),
  grounded: Type.Boolean(),
  usage: UsageSchema,
});

/** Which expected answer a correct case's grounded claims hold, and where. */
export const ExpectedMatchSchema = Type.Object(
  {
    expected: Type.String({ description: "The expected answer that matched, as the case wrote it." }),
    citation: Type.Integer({
      minimum: 0,
      description: "The index, in the case's citations, of the grounded claim that holds it.",
    }),
    range: Type.Tuple([Type.Integer(), Type.Integer()], {
      description:
        "[start, end) in that claim's text, in the request's `offsets` unit (UTF-16 code units by default).",
    }),
  },
  { description: "With `correct: true`: which expected answer matched and where." },
);

export const EvalCaseResultSchema = Type.Union([
  Type.Object({
    id: Type.Optional(Type.String()),
    coverage: Type.Number(),
    citations: Type.Integer(),
    unsupported: Type.Integer(),
    correct: Type.Optional(
      Type.Boolean({
        description:
          "Present when the case carried `expected`: whether one of its answers occurs in a grounded claim.",
      }),
    ),
    match: Type.Optional(ExpectedMatchSchema),
    result: Type.Optional(EvalCaseDetailsSchema),
    result_omitted: Type.Optional(
      Type.Literal("details_budget", {
        description: `With \`details\`, instead of \`result\`: the result's JSON was longer than the case's share of the answer's ${MAX_EVAL_DETAILS_CHARS.toLocaleString("en-US")} characters of details (that total divided by the number of cases).`,
      }),
    ),
  }),
  Type.Object({ id: Type.Optional(Type.String()), error: CaseErrorSchema }),
]);

export const EvalResultSchema = Type.Object({
  aggregate: Type.Object({
    coverage_mean: Type.Number(),
    unsupported_rate: Type.Number(),
    n: Type.Integer(),
    errored: Type.Integer(),
    correct_rate: Type.Optional(
      Type.Number({
        description:
          "Correct cases over the cases without an error that carry `expected`; absent when there are none.",
      }),
    ),
  }),
  cases: Type.Array(EvalCaseResultSchema),
  usage: Type.Object({ total_tokens: Type.Integer(), model_calls: Type.Integer() }),
});
export type EvalResult = Static<typeof EvalResultSchema>;

export const CheckResultSchema = Type.Object({
  text: Type.String(),
  citations: Type.Array(CitationSchema),
  unsupported: Type.Array(UnsupportedClaimSchema),
  partial: Type.Optional(partialTerms()),
  coverage: Type.Number(),
  usage: Type.Object({ model_calls: Type.Integer(), total_tokens: Type.Integer() }),
});
export type CheckResult = Static<typeof CheckResultSchema>;

export const ErrorBodySchema = Type.Object({
  error: Type.Object({
    type: Type.String(),
    code: Type.String(),
    message: Type.String(),
    param: Type.Optional(Type.String()),
    unsupported: Type.Optional(Type.Array(UnsupportedClaimSchema)),
    request_id: Type.Optional(
      Type.String({ description: "The request's x-request-id, to quote when reporting a problem." }),
    ),
    verification: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            "`/v1/chat/completions` with `verification.action` `block`: the verification report of the failing answer; see docs/drop-in.md.",
        },
      ),
    ),
  }),
});

export const ModelListEntrySchema = Type.Object({
  id: Type.String({
    description: 'A model id, a prefix pattern ("ollama/*"), or "*" (any id no other line matches).',
  }),
  match: Type.Union([Type.Literal("exact"), Type.Literal("prefix"), Type.Literal("any")]),
  gateway: Type.Union([Type.String(), Type.Null()], {
    description: "The configured gateway the model goes to; null for the built-in local model.",
  }),
});

export const ModelListSchema = Type.Object({
  models: Type.Array(ModelListEntrySchema, {
    description: "Exact ids first as configured, then patterns; the local model is always listed.",
  }),
});
export type ModelList = Static<typeof ModelListSchema>;

/** Every schema a route uses, for tests that walk them. */
export const requestSchemas: Record<string, TSchema> = {
  create: CreateRequestSchema,
  extract: ExtractRequestSchema,
  eval: EvalRequestSchema,
  check: CheckRequestSchema,
};

// Streamed answers (`"stream": true`): each event as `{event, data}`, written as `event: {event}` and one
// `data: {JSON}` line. OpenAPI 3.1 has no way to describe a sequence of events, so the schema lists them.

const streamEvent = <Name extends string, Data extends TSchema>(
  event: Name,
  data: Data,
  description: string,
) => Type.Object({ event: Type.Literal(event), data }, { description });

const doneAndError = [
  streamEvent("error", ErrorBodySchema, "A failure after the stream began; the stream ends after it."),
] as const;

export const CreateStreamEventSchema = Type.Union(
  [
    streamEvent("claim", CitationSchema, "A claim that passed the check, as soon as the model closed it."),
    streamEvent("unsupported", UnsupportedClaimSchema, "A claim that failed the check."),
    streamEvent(
      "attempt",
      Type.Object({ attempt: Type.Integer({ minimum: 2 }) }),
      "Model call n for claims starts (a retry or a re-ask): the events before it came from earlier calls, and the best attempt wins in `done`.",
    ),
    streamEvent(
      "done",
      CreateResultSchema,
      "The result, identical to the non-streaming answer; the last event.",
    ),
    ...doneAndError,
  ],
  {
    description:
      "Server-sent events (`event:` name, one JSON `data:` line, blank line). Comment lines (`: keep-alive`) are heartbeats.",
  },
);

export const EvalCaseEventSchema = Type.Intersect([
  Type.Object({ index: Type.Integer({ minimum: 0, description: "The case's index in `cases`." }) }),
  EvalCaseResultSchema,
]);

export const EvalStreamEventSchema = Type.Union(
  [
    streamEvent("case", EvalCaseEventSchema, "A case that finished, in the order they finish."),
    streamEvent(
      "done",
      EvalResultSchema,
      "The result, identical to the non-streaming answer; the last event.",
    ),
    ...doneAndError,
  ],
  {
    description:
      "Server-sent events (`event:` name, one JSON `data:` line, blank line). Comment lines (`: keep-alive`) are heartbeats.",
  },
);
