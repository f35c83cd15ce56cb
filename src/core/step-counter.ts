/**
 * Counts the elementary steps a matcher takes (character or token comparisons, characters scanned,
 * occurrences checked), so tests can assert a linear bound without timing anything. Matchers take it as
 * an optional last argument and add to it once per call: passing none costs nothing.
 */
export interface StepCounter {
  steps: number;
}

/**
 * What a check may still read for one claim, in units of work (an occurrence found, a character it covers,
 * a table look-up). Unlike a `StepCounter` it is part of the answer: a finder that runs out stops early and
 * its caller refuses the claim, so a claim built to make the check read without end costs a bounded amount.
 */
export interface ReadAllowance {
  left: number;
}
