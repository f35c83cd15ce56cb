/**
 * Where a claim names table labels, `[start, end)` in the folded claim, and the body rows and header
 * columns of one table they name: the shape of the tables' label occurrences, declared here so that
 * wording does not depend on tables.
 */
export interface Mention {
  start: number;
  end: number;
  table: number;
  rows: readonly number[];
  columns: readonly number[];
}
