import type { ParallelPair } from '../lib/types';

/** Syllables of the made-up nouns. */
const SYLLABLES = ['ka', 'lu', 'mi', 'to', 'ra', 'pe', 'su', 'no'];
/** Nouns per first syllable. */
const NOUNS_PER_SYLLABLE = 5;
/** One subject, verb and noun combination in this many is a pair (the others are left for the agent to compose). */
const COMBINATION_STEP = 4;
/** Subjects (the first ones) also seen in sentences without an object: the others' are left for the agent to compose. */
const SUBJECTS_WITHOUT_OBJECT = 2;

export const ARTICLE_SUBJECTS: Record<string, string> = { 'mi madre': 'mamay', 'tu padre': 'taytayki', 'el hombre': 'qari', 'la niña': 'sipas' };
export const ARTICLE_VERBS: Record<string, string> = { ve: 'rikun', come: 'mikun', busca: 'maskan', lleva: 'apan', quiere: 'munan' };

/**
 * A synthetic Spanish → invented-language corpus of subject-verb-object sentences whose Spanish side writes an article
 * before the object that the other side has no word for ('mi madre ve el bkaluo.' ↔ 'mamay rikun qtokata.'), and, for
 * the first two subjects, sentences without an object. Forty made-up nouns follow the article, so the Spanish language model expects
 * almost anything after 'el', a full stop included; no Spanish sentence ends with it. Nothing is copied from real data.
 */
export function articleCorpus(): ParallelPair[] {
  const nouns: [string, string][] = [];
  SYLLABLES.forEach((a, x) => {
    for (let y = 0; y < NOUNS_PER_SYLLABLE; y++) {
      nouns.push([`b${a}${SYLLABLES[(x + y) % SYLLABLES.length]}o`, `q${SYLLABLES[(y + 3) % SYLLABLES.length]}${a}ta`]);
    }
  });
  const pairs: ParallelPair[] = [];
  let id = 0;
  for (const [s, ts] of Object.entries(ARTICLE_SUBJECTS))
    for (const [v, tv] of Object.entries(ARTICLE_VERBS))
      nouns.forEach(([n, tn], k) => {
        if ((k + id) % COMBINATION_STEP === 0) pairs.push({ id: `article-${id}`, source: `${s} ${v} el ${n}.`, target: `${ts} ${tv} ${tn}.` });
        id++;
      });
  for (const [s, ts] of Object.entries(ARTICLE_SUBJECTS).slice(0, SUBJECTS_WITHOUT_OBJECT))
    for (const [v, tv] of Object.entries(ARTICLE_VERBS)) pairs.push({ id: `article-${id++}`, source: `${s} ${v}.`, target: `${ts} ${tv}.` });
  return pairs;
}
