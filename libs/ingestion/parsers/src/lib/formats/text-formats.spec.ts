import { parseFile, parseFiles } from '../parse-file';

const enc = (s: string) => new TextEncoder().encode(s);
const opts = { srcLang: 'es', tgtLang: 'gn' };
const EXPECTED = [
  { source: 'Hola', target: 'Maitei' },
  { source: 'El perro come.', target: 'Jagua okaru.' },
];

describe('TXT parser', () => {
  it.each([
    ['tab-separated lines', 'Hola\tMaitei\nEl perro come.\tJagua okaru.\n', 'txt:tab'],
    ['tab-separated with a header', 'es\tgn\nHola\tMaitei\nEl perro come.\tJagua okaru.\n', 'txt:tab'],
    ['"src ||| tgt" lines', 'Hola ||| Maitei\nEl perro come. ||| Jagua okaru.\n', 'txt:triple-bar'],
    ['two blocks separated by a blank line', 'Hola\nEl perro come.\n\nMaitei\nJagua okaru.\n', 'txt:two-blocks'],
    ['two blocks separated by a marker', 'Hola\nEl perro come.\n---\nMaitei\nJagua okaru.', 'txt:two-blocks'],
    ['CRLF line ends', 'Hola\tMaitei\r\nEl perro come.\tJagua okaru.\r\n', 'txt:tab'],
  ])('reads %s', async (_n, text, format) => {
    const r = await parseFile({ filename: 'pares.txt', bytes: enc(text), ...opts });
    expect(r.pairs).toEqual(EXPECTED);
    expect(r.format).toBe(format);
  });

  it('reads groups of two lines separated by blank lines', async () => {
    const r = await parseFile({ filename: 'g.txt', bytes: enc('Hola\nMaitei\n\nEl perro come.\nJagua okaru.\n\nGracias\nAguyje\n'), ...opts });
    expect(r.format).toBe('txt:pair-groups');
    expect(r.pairs).toEqual([...EXPECTED, { source: 'Gracias', target: 'Aguyje' }]);
  });

  it('reads "source — target" entries', async () => {
    const r = await parseFile({ filename: 'e.txt', bytes: enc('Hola — Maitei\nEl perro come. — Jagua okaru.\nGracias — Aguyje\n'), ...opts });
    expect(r.format).toBe('txt:separator');
    expect(r.pairs).toEqual([...EXPECTED, { source: 'Gracias', target: 'Aguyje' }]);
  });

  it('aligns two blocks of different lengths by sentence length and anchors', async () => {
    const es = ['El río tiene 12 peces.', 'Juan vive en Asunción desde 1990.', '¿Dónde está mi perro?', 'Mañana llueve.'];
    const gn = [
      'Ysyrýpe oĩ 12 pira.',
      'Juan oiko Asunciónpe 1990 guive.',
      'Moõpa oĩ che jagua?',
      'Ko’ẽrõ oky.',
      'Nota del traductor: texto adicional sin par.',
    ];
    const r = await parseFile({ filename: 'bloques.txt', bytes: enc(es.join('\n') + '\n\n' + gn.join('\n')), ...opts });
    expect(r.pairs.slice(0, 4)).toEqual(es.map((s, i) => ({ source: s, target: gn[i] })));
    expect(r.warnings.join()).toMatch(/aligned by sentence length/);
  });

  it('reads alternating lines (language identification), and does not mistake a monolingual text for it', async () => {
    const es = ['El río Paraná es muy largo.', 'En el año 1537 se fundó la ciudad.', '¿Dónde vive tu abuela?', 'Mi abuela vive en Luque con sus perros.'];
    const gn = ['Ysyry Paraná ipuku eterei.', 'Ary 1537-pe oñemopyenda táva.', 'Moõpa oiko nde jarýi?', 'Che jarýi oiko Luque-pe ijagua kuéra ndive.'];
    const r = await parseFile({ filename: 'alt.txt', bytes: enc(es.flatMap((x, i) => [x, gn[i]]).join('\n')), ...opts });
    expect(r.format).toBe('txt:alternating');
    expect(r.pairs).toEqual(es.map((source, i) => ({ source, target: gn[i] })));
    const mono = [
      'El río Paraná es muy largo y atraviesa varios países.',
      'En el año 1537 se fundó la ciudad de Asunción.',
      'Mi abuela vive en Luque con sus tres perros.',
      'Mañana vamos a la escuela muy temprano.',
      'La comida de hoy fue chipa y sopa paraguaya.',
      'El domingo jugamos al fútbol en la plaza.',
      'Los niños cantan una canción en la escuela.',
      'Mi hermano trabaja en el mercado de la ciudad.',
    ];
    await expect(parseFile({ filename: 'mono.txt', bytes: enc(mono.join('\n')), ...opts })).rejects.toThrow(/^mono\.txt: no sentence pairs found/);
  });

  it('counts blank and one-sided lines', async () => {
    const r = await parseFile({ filename: 'c.txt', bytes: enc('Hola\tMaitei\n\nsolo\t\nEl perro come.\tJagua okaru.\nHola\tMaitei\n'), ...opts });
    expect(r.pairs).toEqual(EXPECTED);
    expect(r.stats).toMatchObject({ lines: 5, empty: 1, oneSided: 1, duplicates: 1 });
  });

  it('says how to format a file with no recognisable pairs', async () => {
    await expect(parseFile({ filename: 'prosa.txt', bytes: enc('Una sola línea de prosa sin traducción'), ...opts })).rejects.toThrow(
      /^prosa\.txt: no sentence pairs found; write one pair per line/,
    );
  });
});

describe('TSV / CSV parser', () => {
  it('reads CSV with a header and quoted fields (commas, quotes, line breaks)', async () => {
    const csv = 'id,source,target,notes\n1,"Hola, amigo","Maitei, ""angirũ""",x\n2,"El perro\ncome.",Jagua okaru.,y\n';
    const r = await parseFile({ filename: 'p.csv', bytes: enc(csv), ...opts });
    expect(r.pairs).toEqual([
      { source: 'Hola, amigo', target: 'Maitei, "angirũ"' },
      { source: 'El perro come.', target: 'Jagua okaru.' },
    ]);
  });

  it('reads TSV with language-named columns in any order, and semicolon CSV', async () => {
    const tsv = 'gn\tes\nMaitei\tHola\nJagua okaru.\tEl perro come.\n';
    expect((await parseFile({ filename: 'p.tsv', bytes: enc(tsv), ...opts })).pairs).toEqual(EXPECTED);
    const semi = 'español;guaraní\nHola;Maitei\nEl perro come.;Jagua okaru.\n';
    expect((await parseFile({ filename: 'p.csv', bytes: enc(semi), ...opts })).pairs).toEqual(EXPECTED);
  });

  it('asks for a header when it cannot tell the columns apart', async () => {
    await expect(parseFile({ filename: 'p.csv', bytes: enc('a,b,c\n1,2,3\n'), ...opts })).rejects.toThrow(
      'p.csv: cannot tell which columns hold es and gn; name them in the header (source,target or es,gn)',
    );
  });
});

describe('TMX parser', () => {
  const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="es-PE" datatype="plaintext"/><body>
<tu><tuv xml:lang="ES-pe"><seg>Hola</seg></tuv><tuv xml:lang="gn"><seg>Maitei</seg></tuv></tu>
<tu><tuv lang="gn-PY"><seg>Jagua <bpt i="1">&lt;b&gt;</bpt>okaru<ept i="1">&lt;/b&gt;</ept>.</seg></tuv><tuv xml:lang="es"><seg><![CDATA[El perro come.]]></seg></tuv></tu>
<tu><tuv xml:lang="es"><seg>Sin par</seg></tuv></tu>
<tu><tuv xml:lang="es"><seg>R&amp;D &#233;xito</seg></tuv><tuv xml:lang="gn"><seg>R&amp;D &#xE9;xito</seg></tuv></tu>
</body></tmx>`;
  it('matches segments by xml:lang (case and region tolerant), strips inline codes', async () => {
    const r = await parseFile({ filename: 'memoria.tmx', bytes: enc(tmx), ...opts });
    expect(r.pairs).toEqual([...EXPECTED, { source: 'R&D éxito', target: 'R&D éxito' }]);
    expect(r.stats.oneSided).toBe(1);
  });

  it('reports a TMX without the agent languages', async () => {
    const other = tmx
      .replace(/"(ES-pe|es|es-PE)"/g, '"en"')
      .replace(/"(gn|gn-PY)"/g, '"fr"')
      .replace('xml:lang="en"><seg>Sin', 'xml:lang="de"><seg>Sin');
    await expect(parseFile({ filename: 'otra.tmx', bytes: enc(other), ...opts })).rejects.toThrow(
      /^otra\.tmx: the TMX has no es\/gn segments \(languages found: /,
    );
  });
});

describe('Moses parser', () => {
  it('pairs x.es with x.gn by stem, in any order', async () => {
    const files = [
      { filename: 'corpus.gn', bytes: enc('Maitei\nJagua okaru.\n') },
      { filename: 'otro.json', bytes: enc('[["Gracias","Aguyje"]]') },
      { filename: 'corpus.es', bytes: enc('Hola\nEl perro come.\n') },
      { filename: 'suelto.es', bytes: enc('sin pareja\n') },
    ];
    const out = await parseFiles(files, opts);
    const moses = out.find((o) => o.filename === 'corpus.es + corpus.gn');
    expect(moses?.ok && moses.result.pairs).toEqual(EXPECTED);
    expect(out.find((o) => o.filename === 'otro.json')?.ok).toBe(true);
    const orphan = out.find((o) => o.filename === 'suelto.es');
    expect(orphan && !orphan.ok && orphan.error.message).toBe('suelto.es: a Moses file needs its other half (suelto.gn) in the same upload');
    expect(out).toHaveLength(3);
  });

  it('warns when the halves have different line counts', async () => {
    const r = await parseFile({
      filename: 'a.es',
      bytes: enc('Hola\nEl perro come.\nextra\n'),
      companion: { filename: 'a.gn', bytes: enc('Maitei\nJagua okaru.\n') },
      ...opts,
    });
    expect(r.pairs).toEqual(EXPECTED);
    expect(r.stats.oneSided).toBe(1);
    expect(r.warnings.join()).toMatch(/3 and 2 lines/);
  });
});
