import { extname } from "node:path";
import type { EvalAllCase } from "../../client/index.js";
import { findDuplicateSourceId } from "../../core/index.js";
import { isRecord } from "../../util.js";
import { compileValidator, EvalCaseSchema } from "../../wire/index.js";
import { CliInputError, jsonElementLines, parseJsonDocument, readInputFile } from "./json-input.js";

const validateCase = compileValidator(EvalCaseSchema);

/**
 * Reads an eval dataset: a JSON file holding `{"cases": [...]}` or a bare array of cases, or JSONL with one
 * case per line (`.jsonl`/`.ndjson`, or any file that is not one JSON document but whose first line is).
 * Each case is `{messages, sources}` with an optional `id` (as the service takes it: 1 to 256 characters or a
 * number) and optional `expected` (an answer or a list of them); other keys of a case, a message or a source
 * (a title, a URL) are ignored.
 * Throws `CliInputError` naming the file and the line of the first problem.
 */
export async function readDataset(path: string): Promise<EvalAllCase[]> {
  const text = await readInputFile(path);
  const extension = extname(path).toLowerCase();
  if (extension === ".jsonl" || extension === ".ndjson") return readJsonl(path, text);
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) {
    if (extension !== ".json" && looksLikeJsonl(text)) return readJsonl(path, text);
    throw new CliInputError(`${path}: line ${parsed.line}: ${parsed.message}`);
  }
  const value = parsed.value;
  const arrayPath = Array.isArray(value) ? [] : ["cases"];
  const items = Array.isArray(value) ? value : isRecord(value) ? value.cases : undefined;
  if (!Array.isArray(items)) {
    throw new CliInputError(
      `${path}: expected {"cases": [...]} or an array of cases (or JSONL, one case per line).`,
    );
  }
  if (items.length === 0) throw new CliInputError(`${path}: holds no cases.`);
  const lines = jsonElementLines(text, arrayPath);
  return items.map((item, index) => readCase(item, `${path}: case ${index + 1} (line ${lines[index] ?? 1})`));
}

function readJsonl(path: string, text: string): EvalAllCase[] {
  const cases: EvalAllCase[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const parsed = parseJsonDocument(line, index + 1);
    if (!parsed.ok) throw new CliInputError(`${path}: line ${index + 1}: ${parsed.message}`);
    cases.push(readCase(parsed.value, `${path}: line ${index + 1}`));
  }
  if (cases.length === 0) throw new CliInputError(`${path}: holds no cases.`);
  return cases;
}

function looksLikeJsonl(text: string): boolean {
  const first = text.split("\n").find((line) => line.trim() !== "");
  return first !== undefined && parseJsonDocument(first).ok;
}

/** Checks one case and keeps what the service takes (`messages`, `sources`, `expected`) plus its `id`. */
function readCase(value: unknown, where: string): EvalAllCase {
  if (!isRecord(value)) throw new CliInputError(`${where}: a case must be an object {messages, sources}.`);
  if (value.sources === undefined || (Array.isArray(value.sources) && value.sources.length === 0)) {
    throw new CliInputError(
      `${where}: the case has no sources; give it "sources": [{"id": ..., "text": ...}].`,
    );
  }
  if (value.messages === undefined) {
    throw new CliInputError(
      `${where}: the case has no messages; give it "messages": [{"role": "user", "content": ...}].`,
    );
  }
  // The service's own case schema judges the id too, so the CLI accepts exactly the ids the endpoint does.
  const validation = validateCase({
    ...(value.id === undefined ? {} : { id: value.id }),
    ...(value.expected === undefined ? {} : { expected: value.expected }),
    messages: pickKeys(value.messages, ["role", "content"]),
    sources: pickKeys(value.sources, ["id", "text"]),
  });
  if (!validation.ok) throw new CliInputError(`${where}: ${validation.message}`);
  const duplicate = findDuplicateSourceId(validation.value.sources);
  if (duplicate >= 0) {
    throw new CliInputError(
      `${where}: "sources[${duplicate}].id" repeats an earlier source id; ids must be unique.`,
    );
  }
  const { id, messages, sources, expected } = validation.value;
  return {
    ...(id === undefined ? {} : { id: String(id) }),
    messages,
    sources,
    ...(expected === undefined ? {} : { expected }),
  };
}

/** Keeps only `keys` of each object in an array (a source's title or URL is not sent); else returns as is. */
function pickKeys(list: unknown, keys: readonly string[]): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((item) =>
    isRecord(item)
      ? Object.fromEntries(keys.filter((key) => key in item).map((key) => [key, item[key]]))
      : item,
  );
}
