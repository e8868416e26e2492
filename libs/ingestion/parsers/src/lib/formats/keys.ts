import { sameLanguage } from '../lang/languages';

export const SOURCE_KEYS = [
  'source',
  'src',
  'source_text',
  'sourcetext',
  'src_text',
  'source_sentence',
  'input',
  'original',
  'from',
  'origin',
  'text',
  'sentence1',
];
export const TARGET_KEYS = [
  'target',
  'tgt',
  'target_text',
  'targettext',
  'tgt_text',
  'target_sentence',
  'translation',
  'output',
  'to',
  'translated',
  'sentence2',
];

const norm = (k: string) =>
  k
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * Given the keys (or column names) of a record, says which one holds the source and which the target:
 * language-named keys first ('es'/'gn', 'spanish'/'guarani'), then generic names ('source'/'target').
 */
const cache = new Map<string, { source: string; target: string } | null>();

export function pickKeys(keys: string[], srcLang: string, tgtLang: string): { source: string; target: string } | null {
  const sig = `${srcLang}\u0000${tgtLang}\u0000${keys.join('\u0001')}`;
  const hit = cache.get(sig);
  if (hit !== undefined) return hit;
  const found = findKeys(keys, srcLang, tgtLang);
  if (cache.size > 1000) cache.clear();
  cache.set(sig, found);
  return found;
}

function findKeys(keys: string[], srcLang: string, tgtLang: string): { source: string; target: string } | null {
  const byLangSrc = keys.find((k) => sameLanguage(k, srcLang));
  const byLangTgt = keys.find((k) => sameLanguage(k, tgtLang) && k !== byLangSrc);
  if (byLangSrc && byLangTgt) return { source: byLangSrc, target: byLangTgt };
  const src = SOURCE_KEYS.map((n) => keys.find((k) => norm(k) === n)).find(Boolean);
  const tgt = TARGET_KEYS.map((n) => keys.find((k) => norm(k) === n && k !== src)).find(Boolean);
  if (src && tgt) return { source: src, target: tgt };
  // One side named by language, the other generic.
  if (byLangSrc && tgt) return { source: byLangSrc, target: tgt };
  if (byLangTgt && src) return { source: src, target: byLangTgt };
  return null;
}

/** True when a key looks like a pair field at all (used to tell a pair object from a dictionary). */
export function isKnownKey(k: string, srcLang: string, tgtLang: string): boolean {
  const n = norm(k);
  return SOURCE_KEYS.includes(n) || TARGET_KEYS.includes(n) || sameLanguage(k, srcLang) || sameLanguage(k, tgtLang);
}
