/**
 * A compositional Spanish → Quechua-like corpus of 12 nouns × 8 adjectives × 3 templates = 288 pairs: enough for a
 * build to measure its quality report (≥ 200 pairs), learned in seconds. Shared by the API and browser suites
 * (no imports: both runners load it as it is).
 */
const NOUNS = [
  ['perro', 'allqu'],
  ['casa', 'wasi'],
  ['río', 'mayu'],
  ['montaña', 'urqu'],
  ['niño', 'wawa'],
  ['pájaro', 'pisqu'],
  ['campo', 'chakra'],
  ['camino', 'ñan'],
  ['árbol', 'sacha'],
  ['piedra', 'rumi'],
  ['fuego', 'nina'],
  ['maíz', 'sara'],
];
const ADJECTIVES = [
  ['grande', 'hatun'],
  ['pequeño', 'huchuy'],
  ['viejo', 'machu'],
  ['nuevo', 'musuq'],
  ['bonito', 'sumaq'],
  ['blanco', 'yuraq'],
  ['negro', 'yana'],
  ['rojo', 'puka'],
];
const TEMPLATES: Array<(n: string, a: string) => string>[] = [
  [(n, a) => `el ${n} ${a}`, (n, a) => `${a} ${n}`],
  [(n, a) => `mi ${n} ${a} duerme en el campo`, (n, a) => `${a} ${n}y chakrapi puñun`],
  [(n, a) => `el ${n} ${a} come maíz con agua`, (n, a) => `${a} ${n} sarata yakuwan mikhun`],
];
export const QUALITY_CORPUS: Array<{ es: string; qu: string }> = TEMPLATES.flatMap(([es, qu]) =>
  NOUNS.flatMap(([n, nq]) => ADJECTIVES.map(([a, aq]) => ({ es: es(n, a), qu: qu(nq, aq) }))),
);
