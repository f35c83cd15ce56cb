/**
 * Counts the elementary steps a matcher takes (character or token comparisons, characters scanned,
 * occurrences checked), so tests can assert a linear bound without timing anything. Matchers take it as
 * an optional last argument and add to it once per call: passing none costs nothing.
 */
export interface StepCounter {
  steps: number;
}
