import { parseFile } from '../parse-file';
import { ParseError } from '../errors';

const enc = (s: string) => new TextEncoder().encode(s);
const json = (v: unknown) => enc(JSON.stringify(v));
const opts = { srcLang: 'es', tgtLang: 'gn' };
const EXPECTED = [
  { source: 'Hola', target: 'Maitei' },
  { source: 'perro', target: 'jagua' },
];

describe('JSON parser', () => {
  it.each([
    [
      '[{"source","target"}]',
      [
        { source: 'Hola', target: 'Maitei' },
        { source: 'perro', target: 'jagua' },
      ],
    ],
    [
      '[{"src","tgt"}]',
      [
        { src: 'Hola', tgt: 'Maitei' },
        { src: 'perro', tgt: 'jagua' },
      ],
    ],
    [
      'keys named by language code',
      [
        { es: 'Hola', gn: 'Maitei' },
        { gn: 'jagua', es: 'perro' },
      ],
    ],
    [
      'keys named by language name',
      [
        { Spanish: 'Hola', Guarani: 'Maitei' },
        { Spanish: 'perro', Guarani: 'jagua' },
      ],
    ],
    [
      'keys with region',
      [
        { 'es-PY': 'Hola', 'gn-PY': 'Maitei' },
        { 'es-PY': 'perro', 'gn-PY': 'jagua' },
      ],
    ],
    [
      '{"pairs":[…]}',
      {
        pairs: [
          { source: 'Hola', target: 'Maitei' },
          { source: 'perro', target: 'jagua' },
        ],
      },
    ],
    [
      '{"data":[[src,tgt]]}',
      {
        data: [
          ['Hola', 'Maitei'],
          ['perro', 'jagua'],
        ],
      },
    ],
    [
      '[[src,tgt]]',
      [
        ['Hola', 'Maitei'],
        ['perro', 'jagua'],
      ],
    ],
    [
      'Hugging Face translation objects',
      [
        { id: 1, translation: { es: 'Hola', gn: 'Maitei' } },
        { id: 2, translation: { es: 'perro', gn: 'jagua' } },
      ],
    ],
    ['parallel columns', { es: ['Hola', 'perro'], gn: ['Maitei', 'jagua'] }],
    ['glossary object', { Hola: 'Maitei', perro: 'jagua' }],
  ])('reads %s', async (_name, value) => {
    const r = await parseFile({ filename: 'pares.json', bytes: json(value), ...opts });
    expect(r.pairs).toEqual(EXPECTED);
  });

  it('normalises (NFC, whitespace), removes duplicates and counts empty and one-sided records', async () => {
    const r = await parseFile({
      filename: 'sucio.json',
      bytes: json([
        { source: '  Cafe\u0301   con  leche ', target: 'Kafe kamby' },
        { source: 'Café con leche', target: 'Kafe   kamby' },
        { source: '', target: '' },
        { source: 'solo', target: '' },
        { source: null, target: 'jagua' },
        { source: 42, target: 'cuarenta y dos' },
      ]),
      ...opts,
    });
    expect(r.pairs).toEqual([
      { source: 'Café con leche', target: 'Kafe kamby' },
      { source: '42', target: 'cuarenta y dos' },
    ]);
    expect(r.stats).toMatchObject({ lines: 6, empty: 1, oneSided: 2, duplicates: 1 });
  });

  it('reads JSON Lines in .jsonl files and in .json files', async () => {
    const text = '{"source":"Hola","target":"Maitei"}\n\n["perro","jagua"]\n';
    for (const filename of ['a.jsonl', 'b.json']) {
      const r = await parseFile({ filename, bytes: enc(text), ...opts });
      expect(r.pairs).toEqual(EXPECTED);
      expect(r.format).toBe('jsonl');
    }
  });

  it('keeps good JSONL lines and reports the broken ones', async () => {
    const r = await parseFile({ filename: 'x.jsonl', bytes: enc('{"source":"Hola","target":"Maitei"}\n{"source": "roto"\n["perro","jagua"]'), ...opts });
    expect(r.pairs).toEqual(EXPECTED);
    expect(r.stats.invalid).toBe(1);
    expect(r.warnings.join()).toMatch(/x\.jsonl: 1 line\(s\) skipped \(line 2: invalid JSON/);
  });

  it('gives the line and column of broken JSON', async () => {
    const err = await parseFile({
      filename: 'roto.json',
      bytes: enc('[\n  {"source": "Hola", "target": "Maitei"},\n  {"source": "x" "target": "y"}\n]'),
      ...opts,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toMatch(/^roto\.json: invalid JSON at line 3, column \d+$/);
    expect(err.code).toBe('MALFORMED');
  });

  it('explains the accepted shapes when the shape is unknown', async () => {
    await expect(parseFile({ filename: 'raro.json', bytes: json([{ foo: 'a', bar: 'b' }]), ...opts })).rejects.toThrow(
      /^raro\.json: item 1 has an unknown shape; expected \[\{"source"/,
    );
    await expect(parseFile({ filename: 'num.json', bytes: json(42), ...opts })).rejects.toThrow(/^num\.json: unknown JSON shape/);
    await expect(parseFile({ filename: 'vacio.json', bytes: json([]), ...opts })).rejects.toThrow(
      'vacio.json: no sentence pairs found (the JSON array is empty)',
    );
  });

  it('enforces the pairs limit', async () => {
    const rows = Array.from({ length: 11 }, (_, i) => [`s${i}`, `t${i}`]);
    await expect(parseFile({ filename: 'big.json', bytes: json(rows), ...opts, maxPairs: 10 })).rejects.toThrow(
      'big.json: more than 10 sentence pairs (the limit per agent)',
    );
  });
});
