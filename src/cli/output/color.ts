/**
 * Colours on a terminal, plain text when piped. `NO_COLOR` (any non-empty value, see no-color.org) turns
 * them off and `FORCE_COLOR` (other than `0`) turns them on, whatever the stream is.
 */
export function shouldUseColor(
  stream: { isTTY?: boolean | undefined },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}
