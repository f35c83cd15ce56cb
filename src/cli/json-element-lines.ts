import { findNodeAtLocation, parseTree } from "jsonc-parser";

/**
 * The 1-based line on which each element of the array at `path` starts, in JSON `text` that is already
 * known to be valid; empty when there is no array there. Lets input errors name the line of a case.
 */
export function jsonElementLines(text: string, path: readonly (string | number)[]): number[] {
  const root = parseTree(text);
  const array = root === undefined ? undefined : findNodeAtLocation(root, [...path]);
  if (array?.type !== "array") return [];
  return (array.children ?? []).map((node) => lineAt(text, node.offset));
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1))
    line += 1;
  return line;
}
