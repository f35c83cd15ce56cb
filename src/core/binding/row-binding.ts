import { listOfLength } from "../lists.js";
import { NumberSpans } from "../numbers/index.js";
import { type Mentions, ruleOn } from "../wording/index.js";

/** What a claim names in one table, and the number keys it states as values there. */
export interface TableBinding {
  rows: number[];
  columns: number[];
  values: string[];
  /** The values as found in the claim, in the order of `values`. */
  valueNumbers: NumberSpans;
  /**
   * Per value, the rows of the row label it belongs to: the nearest one named before it, else the first
   * named after it; empty when the claim names no row. A claim naming several rows binds each number to
   * its own row.
   */
  valueRows: (readonly number[])[];
}

/**
 * Binds a claim's numbers to the labels it names in one table (`occurrences` from one table, in claim
 * order). Numbers inside a named label are context; when all are, the last number that is a whole label
 * occurrence by itself is the value and names nothing, unless it is the claim's only column label and the
 * claim names a row (`French Open for 2008 was Q1`: 2008 is the column, and the claim states no number). An occurrence naming both a row and a column
 * (`Total`) names only a row when the rest names a column and no row, only a column when the rest names a
 * row and no column, and both otherwise.
 *
 * Each value belongs to the nearest row label named before it, else the first named after it.
 *
 * Linear in numbers + occurrences + the rows and columns of the distinct labels named: numbers and
 * occurrences are both in claim order and do not overlap among themselves, so one sweep finds which
 * numbers sit inside a label, and a label named again and again adds its rows once. When a single label's
 * list supplies all the rows (or columns), that very list is returned, and when every number is a value,
 * `numbers` itself is `valueNumbers`: do not modify them.
 */
export function bindClaimToTable(numbers: NumberSpans, occurrences: Mentions): TableBinding {
  let naming = occurrences;
  // The numbers outside every label; `numbers` itself (not copied) until one inside a label is met.
  let outside: NumberSpans | undefined;
  let at = 0;
  for (let index = 0; index < numbers.length; index += 1) {
    const start = numbers.start(index);
    const end = numbers.end(index);
    while (at < occurrences.length && occurrences.end(at) <= start) at += 1;
    if (at === occurrences.length || occurrences.start(at) >= end || !ruleOn("R10")) outside?.add(start, end);
    else outside ??= numbers.copyFirst(index);
  }
  let values = outside ?? numbers;
  if (values.length === 0 && numbers.length > 0 && ruleOn("R10")) {
    // The first occurrence at each start, by its index.
    const byStart = new Map<number, number>();
    let rowNamed = false;
    let columnLabels = 0;
    for (let index = 0; index < occurrences.length; index += 1) {
      const start = occurrences.start(index);
      if (!byStart.has(start)) byStart.set(start, index);
      const rows = occurrences.rows(index).length;
      const columns = occurrences.columns(index).length;
      if (rows > 0 && columns === 0) rowNamed = true;
      if (columns > 0 && rows === 0) columnLabels += 1;
    }
    for (let index = numbers.length - 1; index >= 0; index -= 1) {
      const whole = byStart.get(numbers.start(index));
      // The only column label of a claim that also names a row is that column, not a value: `the
      // french open for 2008 was q1` names the 2008 column of the french open row.
      const onlyColumn =
        whole !== undefined && occurrences.rows(whole).length === 0 && rowNamed && columnLabels === 1;
      if (whole !== undefined && occurrences.end(whole) === numbers.end(index) && !onlyColumn) {
        values = new NumberSpans(numbers.text, 1);
        values.add(numbers.start(index), numbers.end(index));
        naming = occurrences.copyFirst(whole);
        naming.addRange(occurrences, whole + 1, occurrences.length);
        break;
      }
    }
  }

  let rowNamers = 0;
  let columnNamers = 0;
  // Only whether each count passes 1 matters.
  for (let index = 0; index < naming.length && (rowNamers < 2 || columnNamers < 2); index += 1) {
    if (naming.rows(index).length > 0) rowNamers += 1;
    if (naming.columns(index).length > 0) columnNamers += 1;
  }
  // An occurrence naming both a row and a column names what the rest of `naming` (without it) leaves out.
  const restNamesRow = rowNamers > 1;
  const restNamesColumn = columnNamers > 1;
  const rows = new Collected();
  const columns = new Collected();
  let firstRowLabel = -1;
  for (let index = 0; index < naming.length; index += 1) {
    const labelRows = naming.rows(index);
    const labelColumns = naming.columns(index);
    const namesRow = namesRowOf(labelRows, labelColumns, restNamesRow, restNamesColumn);
    let namesColumn = labelColumns.length > 0;
    if (namesRow && namesColumn && restNamesColumn && !restNamesRow && ruleOn("R13")) namesColumn = false;
    if (namesRow) {
      rows.add(labelRows);
      if (firstRowLabel < 0) firstRowLabel = index;
    }
    if (namesColumn) columns.add(labelColumns);
  }
  // Values and row labels are both in claim order: one sweep finds each value's row label, the last
  // one ending before it, else the first of the claim.
  const valueRows = listOfLength<readonly number[]>(values.length);
  const keys = listOfLength<string>(values.length);
  let next = 0;
  let lastBefore = -1;
  for (let index = 0; index < values.length; index += 1) {
    const valueStart = values.start(index);
    while (next < naming.length && naming.end(next) <= valueStart) {
      if (namesRowOf(naming.rows(next), naming.columns(next), restNamesRow, restNamesColumn))
        lastBefore = next;
      next += 1;
    }
    const label = lastBefore >= 0 && ruleOn("R2") ? lastBefore : firstRowLabel;
    valueRows[index] = label < 0 ? NO_ROWS : naming.rows(label);
    keys[index] = values.key(index);
  }
  return {
    rows: rows.result(),
    columns: columns.result(),
    values: keys,
    valueNumbers: values,
    valueRows,
  };
}

const NO_ROWS: readonly number[] = [];

// True when a label of `rows` and `columns` names its row: it names only a column when the rest names a
// row and no column.
function namesRowOf(
  rows: readonly number[],
  columns: readonly number[],
  restNamesRow: boolean,
  restNamesColumn: boolean,
): boolean {
  return rows.length > 0 && !(columns.length > 0 && restNamesRow && !restNamesColumn && ruleOn("R13"));
}

// The union of label lists in first-seen order, each distinct list read once. A label index never lists
// a row (or column) twice for one label, so a single list is its own union and is not copied.
class Collected {
  #only: readonly number[] | undefined;
  #last: readonly number[] | undefined;
  // Made only once a second distinct list comes: most claims name one row label and one column.
  #lists: Set<readonly number[]> | undefined;
  #seen: Set<number> | undefined;

  add(list: readonly number[]): void {
    // A label named again and again adds the same list each time: skip it without a look-up.
    if (list === this.#last || list === this.#only) return;
    this.#last = list;
    if (this.#only === undefined) {
      this.#only = list;
      return;
    }
    if (this.#lists === undefined) {
      this.#lists = new Set([this.#only]);
      this.#seen = new Set(this.#only);
    }
    if (this.#lists.has(list)) return;
    this.#lists.add(list);
    for (const item of list) this.#seen?.add(item);
  }

  result(): number[] {
    if (this.#seen !== undefined) return [...this.#seen];
    return this.#only === undefined ? [] : (this.#only as number[]);
  }
}
