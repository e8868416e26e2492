import type { ParallelPair } from '../lib/types';

/**
 * A synthetic Spanish → invented-language corpus with deterministic rules (SOV order, articles dropped,
 * a locative suffix -pi, glottal apostrophes in words), used by the unit tests. Nothing is copied from real data.
 */
export const TOY_NOUNS: Record<string, string> = {
  perro: 'anu',
  gato: 'misi',
  niño: 'wawa',
  mujer: 'warmi',
  hombre: 'chacha',
  maestro: 'yatichiri',
};
export const TOY_PLACES: Record<string, string> = {
  casa: 'uta',
  escuela: 'yatiqaña',
  campo: 'yapu',
  río: 'jawira',
};
export const TOY_VERBS: Record<string, string> = {
  come: "manq'i",
  duerme: 'ikiri',
  canta: "q'uchu",
  trabaja: 'irnaqi',
};

export function toyCorpus(): ParallelPair[] {
  const out: ParallelPair[] = [];
  let id = 0;
  for (const [n, tn] of Object.entries(TOY_NOUNS))
    for (const [v, tv] of Object.entries(TOY_VERBS))
      for (const [p, tp] of Object.entries(TOY_PLACES)) {
        const art = ['niño', 'perro', 'gato', 'hombre', 'maestro'].includes(n) ? 'el' : 'la';
        const part = ['casa', 'escuela'].includes(p) ? 'la' : 'el';
        out.push({ id: `toy-${id++}`, source: `${art} ${n} ${v} en ${part} ${p}.`, target: `${tn} ${tp}pi ${tv}.` });
      }
  for (const [n, tn] of Object.entries(TOY_NOUNS))
    for (const [v, tv] of Object.entries(TOY_VERBS)) {
      const art = ['niño', 'perro', 'gato', 'hombre', 'maestro'].includes(n) ? 'el' : 'la';
      out.push({ id: `toy-${id++}`, source: `${art} ${n} ${v}.`, target: `${tn} ${tv}.` });
    }
  return out;
}
