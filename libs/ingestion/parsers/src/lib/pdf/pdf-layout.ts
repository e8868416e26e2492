import { alignToPairs, splitSentences } from '../align/gale-church';
import { alternatesLanguages, orientSides } from '../lang/scorer';
import { detectLineLayout, LineLayoutOptions } from '../text/line-layouts';
import { PdfPage, PdfTextItem } from './pdf-text';

/**
 * Bilingual layouts of a PDF text layer: two columns (by x-position), dictionary entries (a headword
 * in its own font), `src — tgt` entries, alternating lines or paragraphs (by language identification
 * trained on the document), aligned by sentence where a block holds several sentences.
 */
export interface PdfLine {
  text: string;
  y: number;
  x: number;
  h: number;
  items: PdfTextItem[];
  /** A paragraph gap or a page break precedes this line. */
  breakBefore: boolean;
}

export interface PdfLayoutResult {
  layout: string;
  pairs: Array<[string, string]>;
  unpaired: number;
  warnings: string[];
}

function joinItems(items: PdfTextItem[]): string {
  let out = '';
  let prev: PdfTextItem | null = null;
  for (const it of items) {
    if (prev) {
      const gap = it.x - (prev.x + prev.w);
      if (gap > Math.max(1, prev.h * 0.15) && !/\s$/.test(out) && !/^\s/.test(it.s)) out += ' ';
    }
    out += it.s;
    prev = it;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Groups items into lines by baseline (top to bottom, left to right). */
export function buildLines(items: PdfTextItem[]): PdfLine[] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: PdfTextItem[][] = [];
  for (const it of sorted) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(last[0].y - it.y) <= Math.max(2, it.h * 0.4)) last.push(it);
    else lines.push([it]);
  }
  const out: PdfLine[] = lines.map((l) => {
    const items = l.sort((a, b) => a.x - b.x);
    return { text: joinItems(items), y: items[0].y, x: items[0].x, h: Math.max(...items.map((i) => i.h)), items, breakBefore: false };
  });
  const gaps = out
    .slice(1)
    .map((l, i) => out[i].y - l.y)
    .filter((g) => g > 0)
    .sort((a, b) => a - b);
  const median = gaps.length ? gaps[Math.floor(gaps.length / 2)] : 0;
  for (let i = 1; i < out.length; i++) if (median && out[i - 1].y - out[i].y > median * 1.6) out[i].breakBefore = true;
  return out;
}

const isPageNumber = (it: PdfTextItem) => /^[\divxlcIVXLC\-–. ]{1,6}$/.test(it.s.trim());

/** The x-position of a vertical gutter splitting the page's text in two columns, or null. */
export function findGutter(items: PdfTextItem[]): number | null {
  const body = items.filter((i) => !isPageNumber(i));
  if (body.length < 4) return null;
  const minX = Math.min(...body.map((i) => i.x));
  const maxX = Math.max(...body.map((i) => i.x + i.w));
  const span = maxX - minX;
  if (span < 100) return null;
  const bins = new Int32Array(Math.ceil(span) + 1);
  for (const i of body) {
    const a = Math.max(0, Math.floor(i.x - minX));
    const b = Math.min(bins.length - 1, Math.ceil(i.x + i.w - minX));
    for (let k = a; k < b; k++) bins[k]++;
  }
  // Allow a few crossing items (titles spanning the page).
  const tolerance = Math.max(1, Math.floor(body.length * 0.05));
  let best: [number, number] | null = null;
  let start = -1;
  for (let k = 0; k <= bins.length; k++) {
    const free = k < bins.length && bins[k] <= tolerance;
    if (free && start < 0) start = k;
    if (!free && start >= 0) {
      const width = k - start;
      const mid = start + width / 2;
      if (width >= 10 && mid > span * 0.15 && mid < span * 0.85 && (!best || width > best[1] - best[0])) best = [start, k];
      start = -1;
    }
  }
  if (!best) return null;
  const gx = minX + (best[0] + best[1]) / 2;
  const left = body.filter((i) => i.x + i.w <= gx).length;
  const right = body.filter((i) => i.x >= gx).length;
  if (left < body.length * 0.2 || right < body.length * 0.2) return null;
  return gx;
}

function joinLines(lines: string[]): string {
  let out = '';
  for (const l of lines) {
    if (!out) out = l;
    else if (/[\p{L}]-$/u.test(out) && /^\p{Ll}/u.test(l)) out = out.slice(0, -1) + l;
    else out += ' ' + l;
  }
  return out;
}

function alignBlocks(a: string, b: string): { pairs: Array<[string, string]>; unpaired: number } {
  const sa = splitSentences(a);
  const sb = splitSentences(b);
  if (sa.length <= 1 || sb.length <= 1) return { pairs: [[a, b]], unpaired: 0 };
  const r = alignToPairs(sa, sb);
  return { pairs: r.pairs, unpaired: r.unmatched };
}

interface Row {
  left: string[];
  right: string[];
}

/** Two-column pages: rows start where both columns start a line at the same height. */
function twoColumns(pages: Array<{ lines: PdfLine[]; gutter: number }>): { rows: Row[]; leftAll: string[]; rightAll: string[] } {
  const rows: Row[] = [];
  const leftAll: string[] = [];
  const rightAll: string[] = [];
  for (const { lines, gutter } of pages) {
    const left: PdfLine[] = [];
    const right: PdfLine[] = [];
    for (const line of lines) {
      const li = line.items.filter((i) => i.x + i.w / 2 < gutter);
      const ri = line.items.filter((i) => i.x + i.w / 2 >= gutter);
      if (li.length && !(ri.length === 0 && li.every(isPageNumber))) left.push({ ...line, items: li, text: joinItems(li) });
      if (ri.length && !(li.length === 0 && ri.every(isPageNumber))) right.push({ ...line, items: ri, text: joinItems(ri) });
    }
    leftAll.push(...left.map((l) => l.text));
    rightAll.push(...right.map((l) => l.text));
    const ys = [...new Set([...left, ...right].map((l) => Math.round(l.y)))].sort((a, b) => b - a);
    let cur: Row | null = null;
    const near = (arr: PdfLine[], y: number) => arr.filter((l) => Math.abs(l.y - y) <= Math.max(2, l.h * 0.4));
    const used = new Set<PdfLine>();
    let lastY = Infinity;
    const ends = (t: string[]) => t.length > 0 && /[.!?…:;)"'”»]$/.test(t[t.length - 1]);
    for (const y of ys) {
      const l = near(left, y).filter((x) => !used.has(x));
      const r = near(right, y).filter((x) => !used.has(x));
      if (!l.length && !r.length) continue;
      l.forEach((x) => used.add(x));
      r.forEach((x) => used.add(x));
      const h = Math.max(...[...l, ...r].map((x) => x.h));
      const gap = lastY - y;
      lastY = y;
      // A new row starts where both columns start a line at the same height after a gap, or where both
      // columns have just finished a sentence (wrapped cells continue the row).
      const bothStart = l.length > 0 && r.length > 0;
      const newRow = !cur || (bothStart && (gap > h * 1.45 || (ends(cur.left) && ends(cur.right)) || !cur.left.length || !cur.right.length));
      if (newRow || !cur) {
        cur = { left: [], right: [] };
        rows.push(cur);
      }
      const row: Row = cur;
      row.left.push(...l.map((x) => x.text));
      row.right.push(...r.map((x) => x.text));
    }
  }
  return { rows, leftAll, rightAll };
}

const POS = /^(?:(?:s|sust|n|v|vt|vi|tr|intr|adj|adv|prep|posp|conj|interj|pron|m|f|loc|expr|part|suf|pref|num)\.\s*)+/i;

/** Dictionary: lines starting with a headword in a font different from the body font. */
function dictionaryByFont(lines: PdfLine[]): Array<[string, string]> | null {
  const chars = new Map<string, number>();
  for (const l of lines) for (const i of l.items) chars.set(i.f, (chars.get(i.f) ?? 0) + i.s.length);
  const body = [...chars.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!body || chars.size < 2) return null;
  const entries: Array<[string, string]> = [];
  let entryLines = 0;
  for (const l of lines) {
    const k = l.items.findIndex((i) => i.f === body);
    if (k > 0 && l.items[0].f !== body) {
      entries.push([joinItems(l.items.slice(0, k)), joinItems(l.items.slice(k)).replace(POS, '')]);
      entryLines++;
    } else if (entries.length && k === 0) {
      entries[entries.length - 1][1] = joinLines([entries[entries.length - 1][1], l.text]);
    }
  }
  if (entryLines < 3 || entryLines < lines.length * 0.4) return null;
  return entries;
}

export function analysePdfLayout(pages: PdfPage[], o: LineLayoutOptions): PdfLayoutResult | null {
  const textPages = pages.filter((p) => p.items.length);
  if (!textPages.length) return null;
  const warnings: string[] = [];
  const withGutter = textPages.map((p) => ({ lines: buildLines(p.items), gutter: findGutter(p.items) }));
  const twoColPages = withGutter.filter((p) => p.gutter !== null) as Array<{ lines: PdfLine[]; gutter: number }>;

  if (twoColPages.length >= Math.max(1, textPages.length * 0.5)) {
    const { rows, leftAll, rightAll } = twoColumns(twoColPages);
    const paired = rows.filter((r) => r.left.length && r.right.length);
    let pairs: Array<[string, string]> = [];
    let unpaired = 0;
    let layout = 'pdf:two-columns';
    if (paired.length >= 2 || (paired.length === 1 && rows.length === 1)) {
      for (const r of rows) {
        if (!r.left.length || !r.right.length) {
          unpaired += r.left.length + r.right.length;
          continue;
        }
        const ab = alignBlocks(joinLines(r.left), joinLines(r.right));
        pairs.push(...ab.pairs);
        unpaired += ab.unpaired;
      }
    } else {
      layout = 'pdf:two-columns-aligned';
      const r = alignToPairs(splitSentences(joinLines(leftAll)), splitSentences(joinLines(rightAll)));
      pairs = r.pairs;
      unpaired = r.unmatched;
    }
    const side = orientSides(
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
      o.srcLang,
      o.tgtLang,
    );
    if (side === 'swap') {
      pairs = pairs.map(([a, b]) => [b, a]);
      warnings.push(`the left column reads as ${o.tgtLang}; columns were swapped`);
    }
    return { layout, pairs, unpaired, warnings };
  }

  const lines = withGutter.flatMap((p) => p.lines.map((l, i) => (i === 0 ? { ...l, breakBefore: true } : l)));
  const dict = dictionaryByFont(lines);
  if (dict) return { layout: 'pdf:dictionary', pairs: dict, unpaired: 0, warnings };

  // Line-level layouts; paragraph gaps become blank lines.
  const asText: string[] = [];
  lines.forEach((l, i) => {
    if (l.breakBefore && i > 0) asText.push('');
    asText.push(l.text);
  });
  const byLines = detectLineLayout(asText, { ...o, wrapped: true });
  if (byLines && byLines.layout !== 'two-blocks') {
    return {
      layout: `pdf:${byLines.layout}`,
      pairs: byLines.pairs.map(([a, b]) => [a, b.replace(POS, '')]),
      unpaired: byLines.unpaired ?? 0,
      warnings: byLines.warnings,
    };
  }

  // Alternating paragraphs (wrapped lines): paragraph-level language test.
  const paras: string[][] = [];
  for (const l of lines) {
    if (l.breakBefore || !paras.length) paras.push([]);
    paras[paras.length - 1].push(l.text);
  }
  const texts = paras.map(joinLines);
  if (alternatesLanguages(texts)) {
    let pairs: Array<[string, string]> = [];
    let unpaired = 0;
    for (let i = 0; i + 1 < texts.length; i += 2) {
      const ab = alignBlocks(texts[i], texts[i + 1]);
      pairs.push(...ab.pairs);
      unpaired += ab.unpaired;
    }
    if (texts.length % 2) unpaired++;
    if (
      orientSides(
        pairs.map((p) => p[0]),
        pairs.map((p) => p[1]),
        o.srcLang,
        o.tgtLang,
      ) === 'swap'
    )
      pairs = pairs.map(([a, b]) => [b, a]);
    return { layout: 'pdf:alternating-paragraphs', pairs, unpaired, warnings };
  }
  if (byLines) return { layout: `pdf:${byLines.layout}`, pairs: byLines.pairs, unpaired: byLines.unpaired ?? 0, warnings: byLines.warnings };
  return null;
}
