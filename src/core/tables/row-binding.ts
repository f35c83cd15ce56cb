import type { FoundNumber } from "../numbers/index.js";
import type { LabelOccurrence } from "./named-labels.js";

/** What a claim names in one table, and the number keys it states as values there. */
export interface TableBinding {
  rows: number[];
  columns: number[];
  values: string[];
}

function inside(number: FoundNumber, occurrence: LabelOccurrence): boolean {
  return number.start < occurrence.end && occurrence.start < number.end;
}

/**
 * Binds a claim's numbers to the labels it names in one table (`occurrences` from one table, in claim
 * order). Numbers inside a named label are context; when all are, the last number that is a whole label
 * occurrence by itself is the value and names nothing. An occurrence naming both a row and a column
 * (`Total`) names only a row when the rest names a column and no row, only a column when the rest names a
 * row and no column, and both otherwise.
 */
export function bindClaimToTable(
  numbers: readonly FoundNumber[],
  occurrences: readonly LabelOccurrence[],
): TableBinding {
  let naming = occurrences;
  let values = numbers.filter((number) => !occurrences.some((occurrence) => inside(number, occurrence)));
  if (values.length === 0 && numbers.length > 0) {
    for (let index = numbers.length - 1; index >= 0; index -= 1) {
      const number = numbers[index] as FoundNumber;
      const whole = occurrences.find((each) => each.start === number.start && each.end === number.end);
      if (whole !== undefined) {
        values = [number];
        naming = occurrences.filter((each) => each !== whole);
        break;
      }
    }
  }

  const rows = new Set<number>();
  const columns = new Set<number>();
  for (const occurrence of naming) {
    let namesRow = occurrence.rows.length > 0;
    let namesColumn = occurrence.columns.length > 0;
    if (namesRow && namesColumn) {
      const rest = naming.filter((each) => each !== occurrence);
      const restNamesRow = rest.some((each) => each.rows.length > 0);
      const restNamesColumn = rest.some((each) => each.columns.length > 0);
      if (restNamesColumn && !restNamesRow) namesColumn = false;
      else if (restNamesRow && !restNamesColumn) namesRow = false;
    }
    if (namesRow) for (const row of occurrence.rows) rows.add(row);
    if (namesColumn) for (const column of occurrence.columns) columns.add(column);
  }
  return { rows: [...rows], columns: [...columns], values: values.map((number) => number.key) };
}
