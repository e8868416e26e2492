/**
 * Language identity for matching file labels (JSON keys, TMX xml:lang, CSV headers, Moses extensions)
 * against the agent's languages. Users type codes or names ('es', 'spa', 'spanish', 'español', 'es-PE'),
 * so each language has a set of aliases.
 */
const GROUPS: string[][] = [
  ['es', 'spa', 'spanish', 'español', 'espanol', 'castellano', 'castilian'],
  ['en', 'eng', 'english', 'inglés', 'ingles'],
  ['pt', 'por', 'portuguese', 'português', 'portugues'],
  ['fr', 'fra', 'fre', 'french', 'français', 'francais', 'francés', 'frances'],
  ['de', 'deu', 'ger', 'german', 'deutsch', 'alemán', 'aleman'],
  ['it', 'ita', 'italian', 'italiano'],
  ['gn', 'grn', 'gug', 'gui', 'gun', 'guarani', 'guaraní', 'avañe’ẽ', "avañe'ẽ", 'avane-e'],
  ['qu', 'que', 'quy', 'quz', 'qub', 'qvc', 'qxo', 'quechua', 'runasimi', 'runa simi', 'kichwa', 'quichua'],
  ['ay', 'aym', 'ayr', 'ayc', 'aymara'],
  ['cni', 'asháninka', 'ashaninka', 'asheninka', 'campa'],
  ['shp', 'shipibo', 'shipibo-konibo', 'shipibo-conibo', 'shipibo konibo'],
  ['agr', 'aguaruna', 'awajún', 'awajun'],
  ['nah', 'nhe', 'nahuatl', 'náhuatl'],
  ['oto', 'ote', 'otomi', 'otomí', 'hñähñu'],
  ['rar', 'raramuri', 'rarámuri', 'tarahumara', 'tar'],
  ['hch', 'wixarika', 'huichol'],
  ['bzd', 'bribri'],
  ['ht', 'hat', 'haitian', 'haitian creole', 'kreyòl'],
  ['km', 'khm', 'khmer'],
  ['mos', 'moore', 'mooré', 'mossi'],
  ['kaa', 'karakalpak'],
  ['hai', 'haida'],
  ['zh', 'zho', 'chi', 'chinese', 'cmn', 'mandarin'],
  ['ja', 'jpn', 'japanese'],
  ['ru', 'rus', 'russian'],
  ['ar', 'ara', 'arabic'],
];

const ALIAS = new Map<string, string>();
for (const g of GROUPS) for (const a of g) ALIAS.set(a, g[0]);

/** Lower-cased, trimmed language label with region/script removed ('es-PE' → 'es', 'es_419' → 'es'). */
export function baseLanguage(label: string): string {
  const s = label.trim().toLowerCase().normalize('NFC');
  const full = ALIAS.get(s);
  if (full) return full;
  const primary = s.split(/[-_@.]/)[0];
  return ALIAS.get(primary) ?? primary;
}

/** True when two labels name the same language ('gn' ~ 'grn' ~ 'Guarani' ~ 'gn-PY'). */
export function sameLanguage(a: string, b: string): boolean {
  if (!a || !b) return false;
  return baseLanguage(a) === baseLanguage(b);
}

/** Languages are stored lower-cased and trimmed (spec §5 / issue: "Languages are stored lowercased"). */
export function normalizeLanguage(label: string): string {
  return label.trim().toLowerCase();
}
