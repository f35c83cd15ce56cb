// Capitalised words a source may write another way: month and weekday abbreviations (`Oct` for `October`),
// unit symbols (`km²` for `square kilometres`, `GHz` for `gigahertz`) and quarters (`Q3` for `third
// quarter`). See docs/matching.md#answers.

import { MONTH_NAMES } from "./equivalences.js";

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
// Abbreviations beside the first three letters.
const LONGER: Readonly<Record<string, readonly string[]>> = {
  september: ["sept"],
  tuesday: ["tues"],
  thursday: ["thur", "thurs"],
};

/** Each folded abbreviation's full name, and each full name's abbreviations: `oct` ⇄ `october`. */
const WRITTEN_FORMS: ReadonlyMap<string, readonly string[]> = (() => {
  const forms = new Map<string, string[]>();
  const add = (from: string, to: string): void => {
    if (from === to) return;
    const list = forms.get(from) ?? [];
    list.push(to);
    forms.set(from, list);
  };
  for (const name of [...MONTH_NAMES, ...WEEKDAYS]) {
    for (const short of [name.slice(0, 3), ...(LONGER[name] ?? [])]) {
      add(short, name);
      add(name, short);
    }
  }
  return forms;
})();

// Unit symbols and quarters, and the words a source writes them out in (folded, as `forEachWord` reads them:
// `km²` is `km2`). A symbol is known where a source writes it, or every word of one of its spelled-out forms.
const UNIT_FORMS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ["km2", ["square kilometre", "square kilometres", "square kilometer", "square kilometers", "sq km"]],
  ["m2", ["square metre", "square metres", "square meter", "square meters", "sq m"]],
  ["mi2", ["square mile", "square miles", "sq mi"]],
  ["ft2", ["square foot", "square feet", "sq ft"]],
  ["m3", ["cubic metre", "cubic metres", "cubic meter", "cubic meters"]],
  ["khz", ["kilohertz"]],
  ["mhz", ["megahertz"]],
  ["ghz", ["gigahertz"]],
  ["kwh", ["kilowatt hour", "kilowatt hours"]],
  ["mwh", ["megawatt hour", "megawatt hours"]],
  ["gwh", ["gigawatt hour", "gigawatt hours"]],
  ["twh", ["terawatt hour", "terawatt hours"]],
  ["mph", ["miles per hour"]],
  ["kph", ["kilometres per hour", "kilometers per hour"]],
  ["rpm", ["revolutions per minute"]],
  ["q1", ["first quarter"]],
  ["q2", ["second quarter"]],
  ["q3", ["third quarter"]],
  ["q4", ["fourth quarter"]],
]);

/**
 * The other written forms of a folded word, each a phrase of folded words: a month or weekday's abbreviation
 * or full name (`oct` gives `october`; `october` gives `oct`), a unit symbol's or quarter's spelled-out forms
 * (`km2`, as `km²` folds, gives `square kilometres`, …; `q3` gives `third quarter`). Empty for any other
 * word. O(1).
 */
export function otherWrittenForms(word: string): readonly string[] {
  return WRITTEN_FORMS.get(word) ?? UNIT_FORMS.get(word) ?? [];
}

// Units of length, mass and volume as a content word: each symbol and spelling of a unit (`km`, `kilometres`,
// `kilometers`) is one term, so `4.2 km long` is held where a source writes `4.2 kilometres`. Symbols that are
// also common words or letters (`m`, `l`, `mi`, `in`) are left out.
const UNIT_SPELLINGS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ["km", ["km", "kms", "kilometre", "kilometres", "kilometer", "kilometers"]],
  ["cm", ["cm", "centimetre", "centimetres", "centimeter", "centimeters"]],
  ["mm", ["mm", "millimetre", "millimetres", "millimeter", "millimeters"]],
  ["m", ["metre", "metres", "meter", "meters"]],
  ["kg", ["kg", "kgs", "kilogram", "kilograms", "kilogramme", "kilogrammes"]],
  ["ml", ["ml", "millilitre", "millilitres", "milliliter", "milliliters"]],
  ["l", ["litre", "litres", "liter", "liters"]],
]);
const UNIT_TERMS: ReadonlyMap<string, string> = new Map(
  [...UNIT_SPELLINGS].flatMap(([unit, spellings]) =>
    spellings.map((spelling) => [spelling, `=unit:${unit}`]),
  ),
);

/** The one content term of a unit's symbol or spelling (`km`, `kilometres`, `kilometers`: `=unit:km`), else null. O(1). */
export function unitTerm(word: string): string | null {
  return UNIT_TERMS.get(word) ?? null;
}
