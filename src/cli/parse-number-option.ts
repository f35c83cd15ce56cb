import { InvalidArgumentError } from "commander";

/**
 * A commander argument parser for a number option within `[min, max]` (whole when `integer`); a bad value
 * becomes commander's one-line usage error, so the command exits 2 before doing anything.
 */
export function parseNumberOption(range: {
  min: number;
  max?: number;
  integer?: boolean;
}): (value: string) => number {
  const kind = range.integer ? "a whole number" : "a number";
  const bounds = range.max === undefined ? `of at least ${range.min}` : `from ${range.min} to ${range.max}`;
  return (value) => {
    const parsed = value.trim() === "" ? Number.NaN : Number(value);
    const valid =
      Number.isFinite(parsed) &&
      (!range.integer || Number.isInteger(parsed)) &&
      parsed >= range.min &&
      (range.max === undefined || parsed <= range.max);
    if (!valid) throw new InvalidArgumentError(`Expected ${kind} ${bounds}.`);
    return parsed;
  };
}
