import { basename, extname } from "node:path";
import type { Source } from "../../client/index.js";
import { isRecord } from "../../util.js";
import { CliInputError, jsonElementLines, parseJsonDocument, readInputFile } from "./json-input.js";

/**
 * Reads `--source` files in order. A file is one source whose id is its file name, except a `.json` file
 * (one `{id, text}`, an array of them, or `{"sources": [...]}`) and a `.jsonl` file (one `{id, text}` per
 * line), which hold their own sources. Throws `CliInputError` naming the file and line of a problem, and
 * when two sources share an id.
 */
export async function readSourceFiles(paths: readonly string[]): Promise<Source[]> {
  const sources: Source[] = [];
  const origins = new Map<string, string>();
  for (const path of paths) {
    const extension = extname(path).toLowerCase();
    // A plain text file keeps its BOM: its ranges count the file as it is.
    const text = await readInputFile(path, extension !== ".json" && extension !== ".jsonl");
    const found =
      extension === ".json"
        ? readJsonSources(path, text)
        : extension === ".jsonl"
          ? readJsonlSources(path, text)
          : [{ source: { id: basename(path), text }, where: path }];
    for (const { source, where } of found) {
      const earlier = origins.get(source.id);
      if (earlier !== undefined) {
        throw new CliInputError(
          `${where}: source id ${JSON.stringify(source.id)} is already used by ${earlier}; ids must be unique (rename the file or change its id).`,
        );
      }
      origins.set(source.id, where);
      sources.push(source);
    }
  }
  return sources;
}

interface FoundSource {
  source: Source;
  /** `file`, or `file: line N`, for messages. */
  where: string;
}

function readJsonSources(path: string, text: string): FoundSource[] {
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) throw new CliInputError(`${path}: line ${parsed.line}: ${parsed.message}`);
  const value = parsed.value;
  if (Array.isArray(value)) return readSourceList(path, text, value, []);
  if (isRecord(value) && Array.isArray(value.sources)) {
    return readSourceList(path, text, value.sources, ["sources"]);
  }
  return [{ source: toSource(value, `${path}: line 1`), where: path }];
}

function readSourceList(path: string, text: string, items: unknown[], arrayPath: string[]): FoundSource[] {
  if (items.length === 0) throw new CliInputError(`${path}: holds no sources.`);
  const lines = jsonElementLines(text, arrayPath);
  return items.map((item, index) => {
    const where = `${path}: line ${lines[index] ?? 1}`;
    return { source: toSource(item, where), where };
  });
}

function readJsonlSources(path: string, text: string): FoundSource[] {
  const found: FoundSource[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const where = `${path}: line ${index + 1}`;
    const parsed = parseJsonDocument(line, index + 1);
    if (!parsed.ok) throw new CliInputError(`${where}: ${parsed.message}`);
    found.push({ source: toSource(parsed.value, where), where });
  }
  if (found.length === 0) throw new CliInputError(`${path}: holds no sources.`);
  return found;
}

/** Keeps `id` and `text` of a source object; other keys (a title, a URL) are ignored. */
function toSource(value: unknown, where: string): Source {
  if (!isRecord(value)) {
    throw new CliInputError(`${where}: a source must be an object {"id": ..., "text": ...}.`);
  }
  if (typeof value.id !== "string" || value.id === "") {
    throw new CliInputError(`${where}: the source needs an "id" that is a non-empty string.`);
  }
  if (typeof value.text !== "string") {
    throw new CliInputError(`${where}: source ${JSON.stringify(value.id)} needs a "text" that is a string.`);
  }
  return { id: value.id, text: value.text };
}
