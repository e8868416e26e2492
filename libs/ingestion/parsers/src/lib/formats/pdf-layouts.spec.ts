import { parseFile } from '../parse-file';
import { buildPdf, twoColumnPdf } from '../../testing/pdf-builder';

const opts = { srcLang: 'es', tgtLang: 'gn' };
const ES = [
  'El río Paraná es muy largo.',
  'En el año 1537 se fundó la ciudad de Asunción.',
  '¿Dónde vive tu abuela?',
  'Mi abuela vive en Luque con sus tres perros.',
  'Mañana vamos a la escuela temprano.',
  'La comida de hoy fue chipa y sopa paraguaya.',
];
const GN = [
  'Ysyry Paraná ipuku eterei.',
  'Ary 1537-pe oñemopyenda táva Asunción.',
  'Moõpa oiko nde jarýi?',
  'Che jarýi oiko Luque-pe imbohapy jagua ndive.',
  "Ko'ẽrõ jaha mbo'ehaópe pya'e.",
  "Ko'ágã tembi'u ha'e chipa ha sopa paraguaya.",
].map((s) => s.replace(/ẽ/g, 'e'));

describe('PDF layouts: paragraphs, pages, headers', () => {
  it('aligns the sentences of parallel paragraphs in two columns (Gale–Church within rows)', async () => {
    const bytes = await twoColumnPdf([
      [ES.slice(0, 3).join(' '), GN.slice(0, 3).join(' ')],
      [ES.slice(3).join(' '), GN.slice(3).join(' ')],
    ]);
    const r = await parseFile({ filename: 'parrafos.pdf', bytes, ...opts });
    expect(r.pairs).toEqual(ES.map((source, i) => ({ source, target: GN[i] })));
  });

  it('reads two columns across pages, ignoring a title spanning both and page numbers', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => [`Frase número ${i} en castellano.`, `Ñe'e papapy ${i} guaraníme.`] as [string, string]);
    const bytes = await buildPdf((doc) => {
      doc.fontSize(11);
      let y = 110;
      let page = 1;
      doc.fontSize(16).text('Diccionario bilingüe castellano guaraní de la escuela', 72, 72, { width: 470 });
      doc.fontSize(11);
      for (const [a, b] of rows) {
        if (y > 700) {
          doc.text(String(page), 300, 740);
          doc.addPage();
          page++;
          y = 72;
        }
        doc.text(a, 72, y, { width: 220 });
        doc.text(b, 320, y, { width: 220 });
        y += 24;
      }
    });
    const r = await parseFile({ filename: 'paginas.pdf', bytes, ...opts });
    expect(r.stats.pages).toBeGreaterThan(1);
    expect(r.pairs).toEqual(rows.map(([source, target]) => ({ source, target })));
  });

  it('reads alternating paragraphs whose lines wrap', async () => {
    const bytes = await buildPdf((doc) => {
      doc.fontSize(11);
      for (let i = 0; i < ES.length; i += 2) {
        doc.text(`${ES[i]} ${ES[i + 1]}`, { width: 200 });
        doc.moveDown();
        doc.text(`${GN[i]} ${GN[i + 1]}`, { width: 200 });
        doc.moveDown();
      }
    });
    const r = await parseFile({ filename: 'alternos.pdf', bytes, ...opts });
    expect(r.format).toBe('pdf:alternating-paragraphs');
    expect(r.pairs).toEqual(ES.map((source, i) => ({ source, target: GN[i] })));
  });
});
