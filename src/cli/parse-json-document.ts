import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";

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
