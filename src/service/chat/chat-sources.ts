import type { Source } from "../../core/index.js";
import { ServiceError } from "../../errors/index.js";
import { contentText } from "../../models/index.js";
import { isRecord } from "../../util.js";
import { checkSourceIds, checkSources } from "../check-sources.js";

/** Where a chat request's sources came from: `verification.sources`, `documents`, or its tool messages. */
export type SourcesFrom = "verification" | "documents" | "tool_messages";

/** A chat request's sources, and where they came from. */
export interface ChatSources {
  sources: Source[];
  from: SourcesFrom;
}

/**
 * The sources of a Chat Completions request, from the first of these that holds any: `verification.sources`;
 * `documents`, shaped as Groq's documents extension (each `{id?, text}` or `{id?, content}`, or a string; an
 * entry without an id is named by its 1-based position, so `[1]` cites the first); the tool-role messages,
 * each one source named by its `tool_call_id`, or, when its text is JSON holding a list of `{id, text}`
 * (`content`, `snippet` or `chunk` for the text; the list itself, or under `documents`, `results`, `sources`
 * or `chunks`), one source per entry. Repeated ids get `-2`, `-3`… Throws `no_sources` when none holds any,
 * and `sources_too_large` past `budget`. Linear in the request.
 */
export function chatSources(body: Record<string, unknown>, budget: number): ChatSources {
  const verification = isRecord(body.verification) ? body.verification : {};
  let found: ChatSources | undefined;
  if (Array.isArray(verification.sources) && verification.sources.length > 0) {
    const sources = verification.sources as Source[];
    checkSourceIds(sources, "verification.sources");
    found = { sources, from: "verification" };
  } else {
    const documents = Array.isArray(body.documents) ? documentSources(body.documents) : [];
    if (documents.length > 0) found = { sources: uniqueIds(documents), from: "documents" };
    else {
      const tools = toolSources(body.messages);
      if (tools.length > 0) found = { sources: uniqueIds(tools), from: "tool_messages" };
    }
  }
  if (found === undefined) {
    throw new ServiceError(
      "no_sources",
      'The request asks for verification but holds no sources: send "verification.sources", "documents", or tool messages with the retrieved text.',
      { param: "verification.sources" },
    );
  }
  checkSources(found.sources, budget, found.from === "verification" ? "verification.sources" : found.from);
  return found;
}

/** Groq-style documents: `{id?, text}`, `{id?, content}` or a string; unnamed ones by position. */
function documentSources(documents: readonly unknown[]): Source[] {
  const sources: Source[] = [];
  documents.forEach((document, index) => {
    const entry = sourceEntry(document, String(index + 1));
    if (entry !== undefined) sources.push(entry);
  });
  return sources;
}

const textKeys = ["text", "content", "snippet", "chunk"] as const;
const listKeys = ["documents", "results", "sources", "chunks"] as const;

function sourceEntry(value: unknown, fallbackId: string): Source | undefined {
  if (typeof value === "string") return { id: fallbackId, text: value };
  if (!isRecord(value)) return undefined;
  const key = textKeys.find((name) => typeof value[name] === "string");
  if (key === undefined) return undefined;
  const id = typeof value.id === "string" || typeof value.id === "number" ? String(value.id) : fallbackId;
  return { id: id === "" ? fallbackId : id, text: value[key] as string };
}

/** One source per tool message, or one per entry of the list of `{id, text}` its JSON holds. */
function toolSources(messages: unknown): Source[] {
  if (!Array.isArray(messages)) return [];
  const sources: Source[] = [];
  let tools = 0;
  for (const message of messages) {
    if (!isRecord(message) || (message.role !== "tool" && message.role !== "function")) continue;
    tools += 1;
    const text = contentText(message.content);
    if (text === undefined || text.trim() === "") continue;
    const name =
      typeof message.tool_call_id === "string" && message.tool_call_id !== ""
        ? message.tool_call_id
        : typeof message.name === "string" && message.name !== ""
          ? message.name
          : `tool-${tools}`;
    const entries = jsonEntries(text);
    if (entries === undefined) {
      sources.push({ id: name, text });
      continue;
    }
    entries.forEach((entry, index) => {
      const source = sourceEntry(entry, `${name}-${index + 1}`);
      if (source !== undefined) sources.push(source);
    });
  }
  return sources;
}

/** The list of entries a tool's JSON result holds, or undefined when it is not JSON of that shape. */
function jsonEntries(text: string): unknown[] | undefined {
  const first = text.trimStart()[0];
  if (first !== "[" && first !== "{") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const list = Array.isArray(parsed)
    ? parsed
    : isRecord(parsed)
      ? listKeys.map((key) => parsed[key]).find(Array.isArray)
      : undefined;
  if (list === undefined || !list.some((entry) => sourceEntry(entry, "") !== undefined)) return undefined;
  return list;
}

/** Repeated ids get `-2`, `-3`…, so tool results that reuse ids still name one source each. */
function uniqueIds(sources: Source[]): Source[] {
  const seen = new Map<string, number>();
  return sources.map((source) => {
    const count = (seen.get(source.id) ?? 0) + 1;
    seen.set(source.id, count);
    if (count === 1) return source;
    let id = `${source.id}-${count}`;
    while (seen.has(id)) id = `${id}-${count}`;
    seen.set(id, 1);
    return { ...source, id };
  });
}
