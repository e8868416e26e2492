import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ParseError } from '../errors';
import { MAX_PDF_PAGES, PDF_PARSE_TIMEOUT_MS, PDF_WORKER_HEAP_MB } from '../limits';

export interface PdfTextItem {
  s: string;
  x: number;
  y: number;
  w: number;
  h: number;
  f: string;
}

export interface PdfPage {
  items: PdfTextItem[];
  width: number;
  height: number;
  hasImages: boolean;
}

export interface PdfText {
  numPages: number;
  pages: PdfPage[];
}

/**
 * pdf.js (ESM) runs in a worker thread: it cannot be `require`d from CommonJS, and the worker gives the
 * reader a heap cap and a time budget, so a hostile PDF cannot take the service down.
 * `isEvalSupported: false` always (CVE-2024-4367).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const pdfjs = await import(workerData.pdfjsUrl);
  const task = pdfjs.getDocument({
    data: workerData.bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
    standardFontDataUrl: workerData.standardFontDataUrl,
  });
  const doc = await task.promise;
  const numPages = doc.numPages;
  const pages = [];
  const n = Math.min(numPages, workerData.maxPages);
  for (let i = 1; i <= n; i++) {
    const page = await doc.getPage(i);
    const vp = page.getViewport({ scale: 1 });
    const tc = await page.getTextContent();
    const items = [];
    let chars = 0;
    for (const it of tc.items) {
      if (typeof it.str !== 'string' || !it.str.trim()) continue;
      chars += it.str.trim().length;
      items.push({ s: it.str, x: it.transform[4], y: it.transform[5], w: it.width, h: it.height || Math.abs(it.transform[3]) || 10, f: it.fontName || '' });
    }
    let hasImages = false;
    if (chars < 20) {
      const ops = await page.getOperatorList();
      const img = new Set([pdfjs.OPS.paintImageXObject, pdfjs.OPS.paintInlineImageXObject, pdfjs.OPS.paintImageMaskXObject]);
      hasImages = ops.fnArray.some((f) => img.has(f));
    }
    pages.push({ items, width: vp.width, height: vp.height, hasImages });
    page.cleanup();
  }
  await doc.destroy();
  parentPort.postMessage({ ok: true, numPages, pages });
})().catch((e) => parentPort.postMessage({ ok: false, name: e && e.name, message: String((e && e.message) || e) }));
`;

function resolvePdfjs(): { pdfjsUrl: string; standardFontDataUrl: string } {
  const bases = [__filename, path.join(process.cwd(), 'index.js')];
  for (const base of bases) {
    try {
      const req = createRequire(base);
      const file = req.resolve('pdfjs-dist/legacy/build/pdf.mjs');
      const root = path.resolve(path.dirname(file), '..', '..');
      return { pdfjsUrl: pathToFileURL(file).href, standardFontDataUrl: path.join(root, 'standard_fonts') + path.sep };
    } catch {
      // try the next base
    }
  }
  throw new Error('pdfjs-dist is not installed');
}

export async function extractPdfText(filename: string, bytes: Uint8Array): Promise<PdfText> {
  const { pdfjsUrl, standardFontDataUrl } = resolvePdfjs();
  return new Promise<PdfText>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bytes: new Uint8Array(bytes), pdfjsUrl, standardFontDataUrl, maxPages: MAX_PDF_PAGES },
      resourceLimits: { maxOldGenerationSizeMb: PDF_WORKER_HEAP_MB },
      stdout: true,
      stderr: true,
    });
    worker.stdout?.resume();
    worker.stderr?.resume();
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new ParseError('PDF_UNREADABLE', filename, `the PDF took longer than ${PDF_PARSE_TIMEOUT_MS / 1000} s to read`))),
      PDF_PARSE_TIMEOUT_MS,
    );
    worker.on('message', (m: { ok: boolean; numPages?: number; pages?: PdfPage[]; name?: string; message?: string }) => {
      if (m.ok) finish(() => resolve({ numPages: m.numPages ?? 0, pages: m.pages ?? [] }));
      else {
        const msg =
          m.name === 'PasswordException'
            ? 'the PDF is password-protected; remove the password and upload it again'
            : m.name === 'InvalidPDFException'
              ? 'not a valid PDF (the file is damaged or is not a PDF)'
              : `the PDF could not be read (${m.message})`;
        finish(() => reject(new ParseError('PDF_UNREADABLE', filename, msg)));
      }
    });
    worker.on('error', (e) =>
      finish(() =>
        reject(
          new ParseError(
            'PDF_UNREADABLE',
            filename,
            /memory/i.test(e.message) ? 'the PDF needs too much memory to read' : `the PDF could not be read (${e.message})`,
          ),
        ),
      ),
    );
    worker.on('exit', (code) => finish(() => reject(new ParseError('PDF_UNREADABLE', filename, `the PDF reader stopped (exit code ${code})`))));
  });
}
