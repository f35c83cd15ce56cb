// Row binding: which row and column of a table each number of a claim belongs to, by the rules of how
// people word claims about tables (the registry in `binding-rules.ts`), and the `row` number check.
export {
  BINDING_PASSES,
  BINDING_RULES,
  type BindingPass,
  type BindingRule,
  ROW_GUARANTEES,
  type RowGuarantee,
  type RuleExample,
  renderRuleList,
} from "./binding-rules.js";
export type { LabelEntry, LabelIndex } from "./label-index.js";
export { endsWord, type LabelOccurrence, standsApart, startsWord } from "./named-labels.js";
export type { TableBinding } from "./row-binding.js";
export { checkRowNumbers, explainRowNumbers } from "./row-check.js";
