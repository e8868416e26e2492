import PDFDocument from 'pdfkit';

export type PdfOp = (doc: PDFKit.PDFDocument) => void;

/** Builds a real PDF with pdfkit (test fixture generator). */
export function buildPdf(draw: PdfOp, opts: PDFKit.PDFDocumentOptions = {}): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ compress: true, ...opts });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

/** Two columns: source on the left, target on the right, rows starting at the same height. */
export function twoColumnPdf(pairs: Array<[string, string]>): Promise<Uint8Array> {
  return buildPdf((doc) => {
    doc.fontSize(11);
    let y = 72;
    for (const [a, b] of pairs) {
      const ha = doc.heightOfString(a, { width: 220 });
      const hb = doc.heightOfString(b, { width: 220 });
      if (y + Math.max(ha, hb) > 720) {
        doc.addPage();
        y = 72;
      }
      doc.text(a, 72, y, { width: 220 });
      doc.text(b, 320, y, { width: 220 });
      y += Math.max(ha, hb) + 8;
    }
  });
}

/** One language per line, alternating. */
export function alternatingPdf(pairs: Array<[string, string]>): Promise<Uint8Array> {
  return buildPdf((doc) => {
    doc.fontSize(11);
    for (const [a, b] of pairs) {
      doc.text(a);
      doc.text(b);
    }
  });
}

/** `source — target` entries. */
export function entriesPdf(pairs: Array<[string, string]>, sep = ' — '): Promise<Uint8Array> {
  return buildPdf((doc) => {
    doc.fontSize(11);
    for (const [a, b] of pairs) doc.text(`${a}${sep}${b}`);
  });
}

/** Dictionary: bold headword followed by part of speech and gloss in the body font. */
export function dictionaryPdf(entries: Array<[string, string]>): Promise<Uint8Array> {
  return buildPdf((doc) => {
    doc.fontSize(11);
    for (const [head, gloss] of entries) {
      doc.font('Helvetica-Bold').text(head, { continued: true }).font('Helvetica').text(` s. ${gloss}`);
    }
  });
}

/** A page with only a picture (a scan): no text layer. */
export function scannedPdf(): Promise<Uint8Array> {
  // 1x1 white PNG
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==', 'base64');
  return buildPdf((doc) => {
    doc.image(png, 72, 72, { width: 400, height: 500 });
  });
}
