import type { ParallelPair } from '../lib/types';

/**
 * A made-up Spanish → English corpus of everyday sentences, composed from small word lists (nothing copied from
 * real data). "mañana" alone means "tomorrow", while "en la mañana" (seen as often) means "in the morning";
 * "hotel", "internet" and "Ana" are written the same in both languages; "posada" is only ever translated
 * "hotel", so "hotel" is an English word the Spanish side never shows.
 */
const SUBJECTS: [string, string][] = [
  ['Mi madre', 'My mother'],
  ['Mi padre', 'My father'],
  ['El niño', 'The boy'],
  ['La niña', 'The girl'],
  ['Mi hermano', 'My brother'],
  ['Ana', 'Ana'],
];
const VERBS: [string, string][] = [
  ['come', 'eats'],
  ['bebe', 'drinks'],
  ['compra', 'buys'],
  ['prepara', 'makes'],
];
const OBJECTS: [string, string][] = [
  ['pan', 'bread'],
  ['café', 'coffee'],
  ['fruta', 'fruit'],
  ['leche', 'milk'],
  ['sopa', 'soup'],
];
const TIMES: [string, string][] = [
  ['en la mañana', 'in the morning'],
  ['hoy', 'today'],
  ['mañana', 'tomorrow'],
  ['en la noche', 'at night'],
];
const PLACES: [string, string][] = [
  ['la casa', 'the house'],
  ['la escuela', 'the school'],
  ['la posada', 'the hotel'],
  ['el parque', 'the park'],
];

export function everydayCorpus(): ParallelPair[] {
  const out: ParallelPair[] = [];
  let id = 0;
  for (const [s, ts] of SUBJECTS)
    for (const [v, tv] of VERBS)
      for (const [o, to] of OBJECTS)
        for (const [t, tt] of TIMES) out.push({ id: `day-${id++}`, source: `${s} ${v} ${o} ${t}.`, target: `${ts} ${tv} ${to} ${tt}.` });
  for (const [s, ts] of SUBJECTS)
    for (const [p, tp] of PLACES) {
      out.push({ id: `day-${id++}`, source: `${s} duerme en ${p}.`, target: `${ts} sleeps in ${tp}.` });
      out.push({ id: `day-${id++}`, source: `${s} usa internet en ${p}.`, target: `${ts} uses the internet in ${tp}.` });
    }
  return out;
}
