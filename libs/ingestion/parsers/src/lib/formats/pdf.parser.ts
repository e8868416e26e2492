import { ParseError } from '../errors';
import { PairCollector } from '../pair-collector';
import { analysePdfLayout } from '../pdf/pdf-layout';
import { extractPdfText } from '../pdf/pdf-text';
import { ParseOptions, ParseResult } from '../types';

export const visionNeeded = (filename: string, what = 'scanned pages') =>
  new ParseError('NEEDS_VISION', filename, `${what} need a vision model (set OPENAI_VISION_MODEL)`);

export async function parsePdfBytes(filename: string, bytes: Uint8Array, o: ParseOptions): Promise<ParseResult> {
  const doc = await extractPdfText(filename, bytes);
  const c = new PairCollector(filename, o.maxPairs);
  c.stats.pages = doc.numPages;
  if (doc.numPages > doc.pages.length) c.warn(`${filename}: only the first ${doc.pages.length} of ${doc.numPages} pages were read`);
  const scanned: number[] = [];
  doc.pages.forEach((p, i) => {
    const chars = p.items.reduce((n, it) => n + it.s.trim().length, 0);
    if (chars < 20 && (p.hasImages || chars === 0)) scanned.push(i + 1);
  });
  c.stats.scannedPages = scanned.length;
  const textPages = doc.pages.filter((_, i) => !scanned.includes(i + 1));
  let format = 'pdf';
  if (textPages.length) {
    const layout = analysePdfLayout(textPages, o);
    if (layout) {
      format = layout.layout;
      for (const [a, b] of layout.pairs) c.add(a, b);
      for (let i = 0; i < layout.unpaired; i++) c.addOneSided();
      for (const w of layout.warnings) c.warn(`${filename}: ${w}`);
    } else if (!scanned.length || !o.vision) {
      throw new ParseError(
        'NO_PAIRS',
        filename,
        'no bilingual layout found in the text (expected two columns, alternating lines, "source — target" entries or dictionary entries)',
      );
    }
  }
  if (scanned.length) {
    if (o.vision) {
      const pairs = await o.vision.extractPairs({ bytes, mime: 'application/pdf', srcLang: o.srcLang, tgtLang: o.tgtLang, filename, pages: scanned });
      for (const p of pairs) c.add(p.source, p.target);
      format = textPages.length ? `${format}+vision` : 'pdf:vision';
    } else if (!textPages.length) {
      throw visionNeeded(filename);
    } else {
      c.warn(
        `${filename}: page(s) ${scanned.join(', ')} have no text layer (scanned) and were not read; scanned pages need a vision model (set OPENAI_VISION_MODEL)`,
      );
    }
  }
  return c.finish(format);
}
