import type { ParallelPair } from '../lib/types';

/**
 * A made-up Spanish ↔ "Kichwa-like" corpus (nothing copied from real data) whose nouns are Spanish loanwords written
 * with the other language's spelling: Spanish c / z before a back vowel is written k / s, a final o is written u
 * ('camisa' → 'kamisa', 'zapato' → 'sapatu'). Sentences are "<subject> huk <noun> <verb>." ↔ "<sujeto> <verbo> un(a)
 * <sustantivo>.". 'cuchillo' is a Spanish word of the data whose own translation there is another word ('kuchu'),
 * so the loanword 'kuchillu' is never seen: only its spelling tells what it is. 'televisor' is borrowed as it is.
 */
const SUBJECTS: [string, string][] = [
  ['Juan', 'Juan'],
  ['Mi madre', 'Mamay'],
  ['El niño', 'Wawa'],
  ['Rosa', 'Rosa'],
];
const VERBS: [string, string][] = [
  ['compra', 'rantin'],
  ['vende', 'qatun'],
  ['busca', 'maskan'],
];
const NOUNS: [string, string][] = [
  ['una camisa', 'kamisa'],
  ['un zapato', 'sapatu'],
  ['una cama', 'kama'],
  ['un cajón', 'kahun'],
  ['un plato', 'platu'],
  ['un carro', 'karru'],
  ['una cuchara', 'kuchara'],
  ['un queso', 'kisu'],
  ['una casa', 'wasi'],
  ['un perro', 'allqu'],
];

export function loanwordCorpus(): ParallelPair[] {
  const out: ParallelPair[] = [];
  let id = 0;
  for (const [s, ts] of SUBJECTS)
    for (const [v, tv] of VERBS) {
      for (const [n, tn] of NOUNS) out.push({ id: `loan-${id++}`, source: `${s} ${v} ${n}.`, target: `${ts} huk ${tn} ${tv}.` });
      out.push({ id: `loan-${id++}`, source: `${s} ${v} un cuchillo.`, target: `${ts} huk kuchu ${tv}.` });
      out.push({ id: `loan-${id++}`, source: `${s} ${v} un televisor.`, target: `${ts} huk televisor ${tv}.` });
    }
  return out;
}
