import type { ExtractSchema } from "../../client/index.js";
import { CliInputError } from "./json-input.js";

/** Turns `--field name="description"` values into an extract schema; a malformed or repeated name throws. */
export function parseFieldFlags(values: readonly string[]): ExtractSchema {
  const schema: ExtractSchema = {};
  for (const value of values) {
    const equals = value.indexOf("=");
    const name = equals < 0 ? "" : value.slice(0, equals).trim();
    const description = equals < 0 ? "" : value.slice(equals + 1).trim();
    if (name === "" || description === "") {
      throw new CliInputError(
        `--field ${JSON.stringify(value)} must read name="description", e.g. --field total="the amount due".`,
      );
    }
    if (Object.hasOwn(schema, name))
      throw new CliInputError(`--field ${JSON.stringify(name)} is given twice.`);
    Object.defineProperty(schema, name, {
      value: description,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return schema;
}
