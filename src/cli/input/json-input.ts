import { readFile } from "node:fs/promises";
import { findNodeAtLocation, type ParseError, parse, parseTree, printParseErrorCode } from "jsonc-parser";
import { invalidUtf8At } from "../../models/index.js";

/** Counts newlines passed, so a test can assert the one-pass bound without timing (as core's StepCounter). */
interface StepCounter {
  steps: number;
}

const reasons: Record<string, string> = {
  ENOENT: "no such file",
  EISDIR: "it is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
};

/**
 * Reads a UTF-8 file named on the command line; throws `CliInputError` saying why not, and for bytes that
 * are not UTF-8 (decoded, each would become U+FFFD and shift every offset after it) naming the first one's
 * offset. A leading BOM is dropped for a JSON file (`keepBom` false), and kept for a text whose offsets are
 * reported (an answer, a source file), so that they count the file's bytes as they are.
 */
export async function readInputFile(path: string, keepBom = false): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === undefined ? String(error) : `${reasons[code] ?? "cannot open it"} (${code})`;
    throw new CliInputError(`cannot read ${path}: ${reason}`);
  }
  const bad = invalidUtf8At(bytes);
  if (bad >= 0) {
    throw new CliInputError(
      `${path}: not valid UTF-8: the byte at offset ${bad} (0x${(bytes[bad] as number).toString(16).padStart(2, "0")}) does not belong to a UTF-8 character; save the file as UTF-8.`,
    );
  }
  const text = bytes.toString("utf8");
  return !keepBom && text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/** Parsed JSON, or where and why it is not JSON, with a 1-based line number. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; line: number; message: string };

function describeCode(error: ParseError): string {
  // "ValueExpected" → "value expected"
  return printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

/**
 * Parses JSON text strictly; on failure names the line of the first problem. JSON.parse decides validity;
 * jsonc-parser only locates the error, since V8 does not always report a position.
 */
export function parseJsonDocument(text: string, firstLine = 1): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    if (text.trim() === "")
      return { ok: false, line: firstLine, message: "empty input, expected a JSON document" };
    const errors: ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (first === undefined) {
      return { ok: false, line: firstLine, message: `invalid JSON: ${(error as Error).message}` };
    }
    const line = firstLine + (text.slice(0, first.offset).match(/\n/g)?.length ?? 0);
    return { ok: false, line, message: `invalid JSON: ${describeCode(first)}` };
  }
}

/**
 * The 1-based line on which each element of the array at `path` starts, in JSON `text` that is already
 * known to be valid; empty when there is no array there. Lets input errors name the line of a case.
 * O(n + elements): one pass over the text, however many elements (`steps` counts the newlines passed).
 */
export function jsonElementLines(
  text: string,
  path: readonly (string | number)[],
  steps?: StepCounter,
): number[] {
  const root = parseTree(text);
  const array = root === undefined ? undefined : findNodeAtLocation(root, [...path]);
  if (array?.type !== "array") return [];
  return linesOfOffsets(
    text,
    (array.children ?? []).map((node) => node.offset),
    steps,
  );
}

/**
 * The 1-based line of each offset, for offsets in ascending order (as a JSON array's elements are): the
 * newlines before one offset are counted once and carried to the next, so the text is read once.
 */
function linesOfOffsets(text: string, offsets: readonly number[], steps?: StepCounter): number[] {
  const lines: number[] = [];
  let line = 1;
  let nextNewline = text.indexOf("\n");
  for (const offset of offsets) {
    while (nextNewline !== -1 && nextNewline < offset) {
      line += 1;
      nextNewline = text.indexOf("\n", nextNewline + 1);
      if (steps) steps.steps += 1;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Input the user can fix before anything runs (a missing file, invalid JSON, a case without sources): the
 * command prints its message as one line and exits 2. Anything else thrown is unexpected.
 */
export class CliInputError extends Error {
  override readonly name = "CliInputError";
}
