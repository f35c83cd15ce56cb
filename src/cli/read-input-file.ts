import { readFile } from "node:fs/promises";
import { CliInputError } from "./cli-input-error.js";

const reasons: Record<string, string> = {
  ENOENT: "no such file",
  EISDIR: "it is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
};

/** Reads a UTF-8 file named on the command line (a leading BOM dropped); throws `CliInputError` saying why not. */
export async function readInputFile(path: string): Promise<string> {
  try {
    const text = await readFile(path, "utf8");
    return text.startsWith("\uFEFF") ? text.slice(1) : text;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === undefined ? String(error) : `${reasons[code] ?? "cannot open it"} (${code})`;
    throw new CliInputError(`cannot read ${path}: ${reason}`);
  }
}
