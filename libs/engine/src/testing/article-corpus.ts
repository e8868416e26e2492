import type { ParallelPair } from '../lib/types';

/** Syllables of the made-up nouns. */
const SYLLABLES = ['ka', 'lu', 'mi', 'to', 'ra', 'pe', 'su', 'no'];
/** Nouns per first syllable. */
const NOUNS_PER_SYLLABLE = 5;
/** One subject, verb and noun combination in this many is a pair (the others are left for the agent to compose). */
const COMBINATION_STEP = 4;
/** Subjects (the first ones) also seen in sentences without an object: the others' are left for the agent to compose. */
const SUBJECTS_WITHOUT_OBJECT = 2;
/** Dialogues per subject and verb (each with another reply): 60 dashes, enough for the data to say none ends a sentence. */
const DIALOGUE_REPLIES = 3;

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

/**
 * Two-turn dialogues over the article corpus' subjects and verbs without an object, whose Spanish side opens the second
 * speaker's turn with a dash that the other side does not write ('mi madre ve. - tu padre come.' ↔ 'mamay rikun.
 * taytayki mikun.'): a full stop of the other language is then also learned as '. -', and the Spanish language model
 * expects a dash after a full stop. Nothing is copied from real data.
 */
export function articleDialogues(): ParallelPair[] {
  const subjects = Object.entries(ARTICLE_SUBJECTS);
  const verbs = Object.entries(ARTICLE_VERBS);
  const pairs: ParallelPair[] = [];
  subjects.forEach(([s, ts], a) =>
    verbs.forEach(([v, tv], b) => {
      for (let k = 1; k <= DIALOGUE_REPLIES; k++) {
        const [s2, ts2] = subjects[(a + k) % subjects.length];
        const [v2, tv2] = verbs[(b + k + 1) % verbs.length];
        pairs.push({ id: `dialogue-${pairs.length}`, source: `${s} ${v}. - ${s2} ${v2}.`, target: `${ts} ${tv}. ${ts2} ${tv2}.` });
      }
    }),
  );
  return pairs;
}

/** Two made-up adverbs of the other language that the Spanish side translates alike ('mucho'). */
export const ARTICLE_SYNONYMS = ['anchata', 'sinchita'] as const;

/**
 * Sentences without an object ending with one of two adverbs the Spanish side writes alike ('mi madre come mucho.' ↔
 * 'mamay mikun anchata.' and 'mamay mikun sinchita.'): both adverbs in one input are two words with one translation,
 * which the Spanish data never writes twice in a row. Nothing is copied from real data.
 */
export function articleSynonyms(): ParallelPair[] {
  const pairs: ParallelPair[] = [];
  for (const [s, ts] of Object.entries(ARTICLE_SUBJECTS))
    for (const [v, tv] of Object.entries(ARTICLE_VERBS))
      for (const adverb of ARTICLE_SYNONYMS) pairs.push({ id: `synonym-${pairs.length}`, source: `${s} ${v} mucho.`, target: `${ts} ${tv} ${adverb}.` });
  return pairs;
}
