/**
 * A deterministic synthetic parallel corpus: Spanish-like sentences and a made-up agglutinative
 * target language (word-by-word lexicon + suffixes + glottal apostrophes), so tests exercise the
 * engine and ingestion without copying any real data.
 */
const SUBJECTS: [string, string][] = [
  ['el niño', 'wawa'],
  ['la mujer', 'warmi'],
  ['el hombre', 'qhari'],
  ['mi madre', 'mamay'],
  ['el perro', 'allqu'],
  ['la abuela', 'hatun mama'],
];
const VERBS: [string, string][] = [
  ['come', 'mikhun'],
  ['bebe', 'upyan'],
  ['ve', 'rikun'],
  ['quiere', 'munan'],
  ['lleva', 'apan'],
  ['busca', 'maskan'],
];
const OBJECTS: [string, string][] = [
  ['agua', 'yaku'],
  ['pan', "t'anta"],
  ['la casa', 'wasi'],
  ['el río', 'mayu'],
  ['la papa', 'papa'],
  ['el maíz', 'sara'],
  ['la montaña', 'urqu'],
  ['la comida', 'mikhuna'],
];
const PLACES: [string, string][] = [
  ['en el campo', 'chakrapi'],
  ['en la casa', 'wasipi'],
  ['cerca del río', 'mayu qayllapi'],
  ['hoy', 'kunan'],
  ['mañana', 'paqarin'],
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface SyntheticPair {
  id: string;
  source: string;
  target: string;
}

export function syntheticCorpus(n: number, seed = 42): SyntheticPair[] {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const out: SyntheticPair[] = [];
  for (let i = 0; i < n; i++) {
    const [s, st] = pick(SUBJECTS);
    const [v, vt] = pick(VERBS);
    const [o, ot] = pick(OBJECTS);
    const withPlace = r() < 0.5;
    const [p, pt] = pick(PLACES);
    const source = `${s} ${v} ${o}${withPlace ? ` ${p}` : ''}.`;
    const target = `${st} ${ot}ta ${withPlace ? `${pt} ` : ''}${vt}.`;
    out.push({ id: `p${i}`, source: source[0].toUpperCase() + source.slice(1), target: target[0].toUpperCase() + target.slice(1) });
  }
  return out;
}

export const toJsonl = (pairs: SyntheticPair[]): Uint8Array => new TextEncoder().encode(pairs.map((p) => JSON.stringify(p)).join('\n') + '\n');
