// How people word claims about tables (every word list once in `word-lists.ts`): headers named by inflection or abbreviation, numbers read as units
// and dates, and which named column each number belongs to. Deterministic and linear; no model.
export {
  allOf,
  codeClass,
  isDigitCode,
  isLetterCode,
  isWordCode,
  onlyNumberSigns,
} from "./characters.js";
export { buildHeaderStems, findHeaderStems, type HeaderStems, headerStem } from "./header-words.js";
export { type Mention, Mentions, type MentionTarget } from "./mention.js";
export { type RuleId, ruleOn, withRulesOff } from "./rule-switch.js";
export {
  type Bound,
  boundOf,
  dateNumbers,
  isCircumstance,
  isDayOfMonth,
  numberUnits,
  statesDifferenceOfRows,
  valueColumns,
} from "./value-columns.js";
