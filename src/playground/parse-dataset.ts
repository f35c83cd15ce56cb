import { evalCaseIdProblem, type Message, type Source } from "../client/index.js";
import { MAX_EXPECTED_ANSWERS } from "../limits.js";

/** One evaluation case as the dataset file holds it: the request part plus an optional label. */
export interface DatasetCase {
  id?: string;
  /** Acceptable answers: the case is correct when one occurs in a grounded claim. */
  expected?: string | string[];
  messages: Message[];
  sources: Source[];
}

/** The parsed dataset, or one line saying what is wrong and where. */
export type ParseDatasetResult = { ok: true; cases: DatasetCase[] } | { ok: false; error: string };

const roles = new Set(["system", "user", "assistant"]);

/**
 * Parses an evaluation dataset in the formats `verified eval` reads: JSON `{"cases": [...]}` or a bare
 * array, or JSONL with one case per line. Each case is `{messages, sources}` plus an optional `id` and
 * `expected`; other
 * fields are ignored so they never reach the service, which rejects unknown fields.
 */
export function parseDataset(text: string, fileName = ""): ParseDatasetResult {
  const lower = fileName.toLowerCase();
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, error: "The dataset is empty." };
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return parseJsonLines(text);
  if (lower.endsWith(".json")) return parseJson(text);
  // No telling extension: a whole-document JSON value first, then one value per line.
  const asJson = parseJson(text);
  if (asJson.ok || !trimmed.startsWith("{") || !trimmed.includes("\n")) return asJson;
  const asLines = parseJsonLines(text);
  return asLines.ok ? asLines : asJson;
}

function parseJson(text: string): ParseDatasetResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Invalid JSON${lineOfJsonError(text, error)}: ${jsonErrorText(error)}` };
  }
  const list = Array.isArray(value) ? value : isObject(value) ? value.cases : undefined;
  if (!Array.isArray(list)) {
    return {
      ok: false,
      error: 'Expected {"cases": [...]} or an array of cases (or JSONL, one case per line).',
    };
  }
  if (list.length === 0) return { ok: false, error: "The dataset holds no cases." };
  const cases: DatasetCase[] = [];
  for (const [index, item] of list.entries()) {
    const parsed = toCase(item, `case ${index + 1}`);
    if (typeof parsed === "string") return { ok: false, error: parsed };
    cases.push(parsed);
  }
  return { ok: true, cases };
}

function parseJsonLines(text: string): ParseDatasetResult {
  const cases: DatasetCase[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const where = `line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      return { ok: false, error: `Invalid JSON on ${where}: ${jsonErrorText(error)}` };
    }
    const parsed = toCase(value, `case ${cases.length + 1} (${where})`);
    if (typeof parsed === "string") return { ok: false, error: parsed };
    cases.push(parsed);
  }
  if (cases.length === 0) return { ok: false, error: "The dataset holds no cases." };
  return { ok: true, cases };
}

/** Validates one case; returns the error text when it is not a case. */
function toCase(value: unknown, where: string): DatasetCase | string {
  if (!isObject(value)) return `${where}: expected an object {messages, sources}.`;
  const { id, messages, sources, expected } = value;
  const idProblem = id === undefined ? undefined : evalCaseIdProblem(id);
  if (idProblem !== undefined) return `${where}: "id" ${idProblem}.`;
  const expectedProblem = expected === undefined ? undefined : expectedAnswersProblem(expected);
  if (expectedProblem !== undefined) return `${where}: "expected" ${expectedProblem}.`;
  if (!Array.isArray(messages) || messages.length === 0) {
    return `${where}: "messages" must be a non-empty array of {role, content}.`;
  }
  if (!Array.isArray(sources) || sources.length === 0) {
    return `${where}: "sources" must be a non-empty array of {id, text}.`;
  }
  const caseMessages: Message[] = [];
  for (const [index, message] of messages.entries()) {
    if (!isObject(message) || typeof message.content !== "string" || typeof message.role !== "string") {
      return `${where}: messages[${index}] must be {role, content} with string values.`;
    }
    if (!roles.has(message.role)) {
      return `${where}: messages[${index}].role is "${message.role}"; use system, user or assistant.`;
    }
    caseMessages.push({ role: message.role as Message["role"], content: message.content });
  }
  const caseSources: Source[] = [];
  for (const [index, source] of sources.entries()) {
    if (!isObject(source) || typeof source.id !== "string" || typeof source.text !== "string") {
      return `${where}: sources[${index}] must be {id, text} with string values.`;
    }
    caseSources.push({ id: source.id, text: source.text });
  }
  const result: DatasetCase = { messages: caseMessages, sources: caseSources };
  if (id !== undefined) result.id = String(id);
  if (expected !== undefined) result.expected = expected as string | string[];
  return result;
}

/** Why `expected` is not an answer or a list of 1 to MAX_EXPECTED_ANSWERS answers (the service's rule). */
function expectedAnswersProblem(expected: unknown): string | undefined {
  if (typeof expected === "string") return expected === "" ? "must not be empty" : undefined;
  if (!Array.isArray(expected)) return "must be a string or a list of strings";
  if (expected.length === 0 || expected.length > MAX_EXPECTED_ANSWERS)
    return `must list 1 to ${MAX_EXPECTED_ANSWERS} answers`;
  return expected.every((answer) => typeof answer === "string" && answer !== "")
    ? undefined
    : "must list non-empty strings";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonErrorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** " at line N" from a JSON.parse error that names a line or a character position; engines differ. */
function lineOfJsonError(text: string, error: unknown): string {
  const message = jsonErrorText(error);
  const line = /\(line (\d+) column \d+\)/.exec(message)?.[1];
  if (line !== undefined) return ` at line ${line}`;
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position === undefined) return "";
  return ` at line ${text.slice(0, Number(position)).split("\n").length}`;
}
