import { parseFile } from '../parse-file';
import { ParseError } from '../errors';
import { alternatingPdf, buildPdf, dictionaryPdf, entriesPdf, scannedPdf, twoColumnPdf } from '../../testing/pdf-builder';
import { VisionExtractor } from '../types';

const ES_GN: Array<[string, string]> = [
  ['Buenos días, ¿cómo estás?', "Mba'éichapa nde ko'ẽ?"],
  ['El perro come en la casa.', 'Jagua okaru ógape.'],
  ['Mañana vamos a la escuela con mi hermano.', "Ko'ẽrõ jaha mbo'ehaópe che rykeýndi."],
  ['El agua del río está muy fría.', 'Ysyry y ro’ysã eterei.'],
  ['Gracias por todo lo que hiciste por nosotros.', "Aguyje opa mba'e rejapovaekue ñanderehehápe."],
  ['La niña canta una canción muy bonita en la plaza.', 'Mitãkuña opurahéi peteĩ purahéi porãite plásape.'],
];
// pdfkit standard fonts only encode WinAnsi; keep fixtures to Latin-1 letters.
const latin1 = (s: string) => s.replace(/ẽ/g, 'e').replace(/ĩ/g, 'i').replace(/ỹ/g, 'y').replace(/’/g, "'");
const PAIRS = ES_GN.map(([a, b]) => [latin1(a), latin1(b)] as [string, string]);
const opts = { srcLang: 'es', tgtLang: 'gn' };

describe('PDF parser (text layer, bilingual layouts)', () => {
  it('reads a two-column PDF and pairs rows', async () => {
    const bytes = await twoColumnPdf(PAIRS);
    const r = await parseFile({ filename: 'dos-columnas.pdf', bytes, ...opts });
    expect(r.format).toBe('pdf:two-columns');
    expect(r.pairs).toEqual(PAIRS.map(([source, target]) => ({ source, target })));
    expect(r.stats.pages).toBe(1);
  });

  it('swaps columns when the left column is the target language', async () => {
    const bytes = await twoColumnPdf(PAIRS.map(([a, b]) => [b, a]));
    const r = await parseFile({ filename: 'swapped.pdf', bytes, ...opts });
    expect(r.pairs).toEqual(PAIRS.map(([source, target]) => ({ source, target })));
    expect(r.warnings.join(' ')).toMatch(/swapped/);
  });

  it('reads alternating lines by language identification', async () => {
    const bytes = await alternatingPdf(PAIRS);
    const r = await parseFile({ filename: 'alterno.pdf', bytes, ...opts });
    expect(r.format).toBe('pdf:alternating');
    expect(r.pairs).toEqual(PAIRS.map(([source, target]) => ({ source, target })));
  });

  it('reads "source — target" entries', async () => {
    const bytes = await entriesPdf(PAIRS);
    const r = await parseFile({ filename: 'entradas.pdf', bytes, ...opts });
    expect(r.format).toBe('pdf:separator');
    expect(r.pairs).toEqual(PAIRS.map(([source, target]) => ({ source, target })));
  });

  it('reads dictionary entries with a bold headword', async () => {
    const dict: Array<[string, string]> = [
      ['aguara', 'zorro'],
      ['jagua', 'perro'],
      ['ysyry', 'río, arroyo'],
      ['mitakuña', 'niña'],
    ];
    const bytes = await dictionaryPdf(dict);
    const r = await parseFile({ filename: 'diccionario.pdf', bytes, srcLang: 'gn', tgtLang: 'es' });
    expect(r.format).toBe('pdf:dictionary');
    expect(r.pairs).toEqual(dict.map(([source, target]) => ({ source, target })));
  });

  it('sends scanned pages to the vision extractor, and reports them without one', async () => {
    const bytes = await scannedPdf();
    await expect(parseFile({ filename: 'escaneo.pdf', bytes, ...opts })).rejects.toThrow(
      'escaneo.pdf: scanned pages need a vision model (set OPENAI_VISION_MODEL)',
    );
    const seen: Array<{ mime: string; pages?: number[] }> = [];
    const vision: VisionExtractor = {
      async extractPairs(input) {
        seen.push({ mime: input.mime, pages: input.pages });
        return [{ source: 'Hola', target: 'Maitei' }];
      },
    };
    const r = await parseFile({ filename: 'escaneo.pdf', bytes, ...opts, vision });
    expect(r.pairs).toEqual([{ source: 'Hola', target: 'Maitei' }]);
    expect(seen).toEqual([{ mime: 'application/pdf', pages: [1] }]);
    expect(r.stats.scannedPages).toBe(1);
  });

  it('rejects a PDF that is not a PDF, and a damaged PDF, with clear messages', async () => {
    await expect(parseFile({ filename: 'falso.pdf', bytes: new TextEncoder().encode('hola, esto no es un pdf'), ...opts })).rejects.toThrow(
      'falso.pdf: not a valid PDF (the file does not start with %PDF-)',
    );
    const random = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    await expect(parseFile({ filename: 'ruido.pdf', bytes: random, ...opts })).rejects.toThrow('ruido.pdf: not a valid PDF');
    const good = await twoColumnPdf(PAIRS);
    const broken = good.slice(0, 300);
    const err = await parseFile({ filename: 'roto.pdf', bytes: broken, ...opts }).catch((e) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toMatch(/^roto\.pdf: /);
  });

  it('reports a monolingual PDF as having no bilingual layout', async () => {
    const bytes = await buildPdf((doc) => {
      doc.text('Este documento solo tiene texto en castellano y ninguna traducción al guaraní. ');
      doc.text('Es un informe largo sobre la cosecha del año pasado en la región oriental del país.');
    });
    await expect(parseFile({ filename: 'mono.pdf', bytes, ...opts })).rejects.toThrow(/^mono\.pdf: no bilingual layout found/);
  });
});
