// Names that an answer and its sources write differently for one thing: a country and its people's adjective
// (`Belgium`, `Belgian`), a country and its short forms (`United States`, `USA`, `U.S.`), a common title and
// its abbreviation (`chief executive`, `CEO`). Each line is one group, folded as `forEachWord` folds words;
// words joined by `_` are one name of several words.
const GROUPS = `
afghanistan afghan afghans
albania albanian albanians
algeria algerian algerians
argentina argentine argentinian argentinians
armenia armenian armenians
australia australian australians
austria austrian austrians
bangladesh bangladeshi bangladeshis
belarus belarusian belarusians
belgium belgian belgians
bolivia bolivian bolivians
bosnia bosnian bosnians
brazil brazilian brazilians
bulgaria bulgarian bulgarians
cameroon cameroonian cameroonians
canada canadian canadians
chile chilean chileans
china chinese
colombia colombian colombians
croatia croatian croatians croat croats
cuba cuban cubans
cyprus cypriot cypriots
czechia czech czechs czech_republic
denmark danish dane danes
ecuador ecuadorian ecuadorians
egypt egyptian egyptians
england english
estonia estonian estonians
ethiopia ethiopian ethiopians
finland finnish finn finns
france french
georgia georgian georgians
germany german germans
ghana ghanaian ghanaians
greece greek greeks
hungary hungarian hungarians
iceland icelandic icelander icelanders
india indian indians
indonesia indonesian indonesians
iran iranian iranians
iraq iraqi iraqis
ireland irish
israel israeli israelis
italy italian italians
jamaica jamaican jamaicans
japan japanese
jordan jordanian jordanians
kenya kenyan kenyans
korea korean koreans
latvia latvian latvians
lebanon lebanese
lithuania lithuanian lithuanians
malaysia malaysian malaysians
mexico mexican mexicans
morocco moroccan moroccans
netherlands dutch holland
new_zealand zealander zealanders
nigeria nigerian nigerians
norway norwegian norwegians
pakistan pakistani pakistanis
peru peruvian peruvians
philippines filipino filipinos philippine
poland polish pole poles
portugal portuguese
romania romanian romanians
russia russian russians
saudi_arabia saudi saudis
scotland scottish scot scots
senegal senegalese
serbia serbian serbians serb serbs
slovakia slovak slovaks slovakian
slovenia slovenian slovenians slovene slovenes
spain spanish spaniard spaniards
sweden swedish swede swedes
switzerland swiss
syria syrian syrians
thailand thai thais
tunisia tunisian tunisians
turkey turkish turk turks
ukraine ukrainian ukrainians
uruguay uruguayan uruguayans
venezuela venezuelan venezuelans
vietnam vietnamese
wales welsh
united_states united_states_of_america usa u.s u.s.a america american americans
united_kingdom uk u.k britain great_britain british briton britons
ceo chief_executive chief_executive_officer
cfo chief_financial_officer
`;

/** Each folded word of a group to the group's names, each name as its words. */
const NAMES_OF: ReadonlyMap<string, readonly (readonly string[])[]> = (() => {
  const names = new Map<string, string[][]>();
  for (const line of GROUPS.split("\n")) {
    const group = line
      .trim()
      .split(/\s+/)
      .filter((name) => name !== "")
      .map((name) => name.split("_"));
    for (const name of group) if (name.length === 1) names.set(name[0] as string, group);
  }
  return names;
})();

/**
 * The other names of a folded word (each as its words): `belgian` → `belgium`, `belgians`; `usa` →
 * `united states`, `america`, …. Empty for a word in no group.
 */
export function aliasesOf(word: string): readonly (readonly string[])[] {
  return NAMES_OF.get(word) ?? [];
}
