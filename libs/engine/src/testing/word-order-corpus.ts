import type { ParallelPair } from '../lib/types';

/**
 * A made-up Spanish → English corpus (nothing copied from real data) where the adjective follows the noun in Spanish
 * and precedes it in English: "<sujeto> <verbo> un(a) <sustantivo> <adjetivo> <tiempo>." → "<subject> <verb> a
 * <adjective> <noun> <time>.". A noun and adjective never seen together have no phrase that puts the adjective first,
 * while an example differing only in the adjective shows where it goes.
 */
const SUBJECTS: [string, string][] = [
  ['Ana', 'Ana'],
  ['Mi madre', 'My mother'],
  ['El niño', 'The boy'],
  ['Mi hermano', 'My brother'],
];
const VERBS: [string, string][] = [
  ['compra', 'buys'],
  ['vende', 'sells'],
  ['pinta', 'paints'],
];
const NOUNS: [string, string][] = [
  ['una casa', 'house'],
  ['un carro', 'car'],
  ['una mesa', 'table'],
  ['una silla', 'chair'],
];
const ADJECTIVES: [string, string][] = [
  ['verde', 'green'],
  ['azul', 'blue'],
  ['grande', 'big'],
  ['gris', 'grey'],
];
const TIMES: [string, string][] = [
  ['hoy', 'today'],
  ['ayer', 'yesterday'],
];

/** The corpus; `unseen` noun–adjective pairs ("casa verde") are left out entirely. */
export function wordOrderCorpus(unseen: readonly string[] = []): ParallelPair[] {
  const out: ParallelPair[] = [];
  let id = 0;
  for (const [s, ts] of SUBJECTS)
    for (const [v, tv] of VERBS)
      for (const [n, tn] of NOUNS)
        for (const [a, ta] of ADJECTIVES) {
          if (unseen.includes(`${n.split(' ')[1]} ${a}`)) continue;
          for (const [t, tt] of TIMES) out.push({ id: `order-${id++}`, source: `${s} ${v} ${n} ${a} ${t}.`, target: `${ts} ${tv} a ${ta} ${tn} ${tt}.` });
        }
  return out;
}
