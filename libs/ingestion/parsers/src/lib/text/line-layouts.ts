import { alignToPairs } from '../align/gale-church';
import { alternatesLanguages, orientSides } from '../lang/scorer';

/**
 * Line-oriented bilingual layouts shared by plain text and PDF text: tab or `|||` columns, groups of two
 * lines, two aligned blocks, `src — tgt` entries, and alternating languages line by line.
 */
export type LineLayout = 'tab' | 'triple-bar' | 'pair-groups' | 'two-blocks' | 'separator' | 'alternating';

export interface LineLayoutResult {
  layout: LineLayout;
  /** Raw (un-normalised) pairs in reading order; a side may be '' (one-sided record). */
  pairs: Array<[string, string]>;
  /** Blank records seen (counted as empty). */
  blanks: number;
  /** Lines that found no counterpart (counted as one-sided). */
  unpaired?: number;
  warnings: string[];
}

export interface LineLayoutOptions {
  srcLang: string;
  tgtLang: string;
  /** Lines come from a PDF: an entry line without a separator continues the previous entry. */
  wrapped?: boolean;
}

const isBlank = (s: string) => s.trim() === '';
const MARKER = /^\s*(?:-{3,}|={3,}|#{3,}|\*{3,}|_{3,}|~{3,})\s*$/;

function splitAt(line: string, sep: string | RegExp): [string, string] | null {
  if (typeof sep === 'string') {
    const i = line.indexOf(sep);
    return i < 0 ? null : [line.slice(0, i), line.slice(i + sep.length)];
  }
  const m = sep.exec(line);
  return m ? [line.slice(0, m.index), line.slice(m.index + m[0].length)] : null;
}

function orient(pairs: Array<[string, string]>, o: LineLayoutOptions, warnings: string[]): Array<[string, string]> {
  const full = pairs.filter(([a, b]) => a.trim() && b.trim());
  if (full.length < 2) return pairs;
  const side = orientSides(
    full.map((p) => p[0]),
    full.map((p) => p[1]),
    o.srcLang,
    o.tgtLang,
  );
  if (side === 'swap') {
    warnings.push(`the first column reads as ${o.tgtLang} and the second as ${o.srcLang}; columns were swapped`);
    return pairs.map(([a, b]) => [b, a]);
  }
  return pairs;
}

function byColumns(lines: string[], sep: string | RegExp, layout: LineLayout, o: LineLayoutOptions): LineLayoutResult {
  const pairs: Array<[string, string]> = [];
  let blanks = 0;
  for (const line of lines) {
    if (isBlank(line)) {
      blanks++;
      continue;
    }
    const parts = splitAt(line, sep);
    if (parts) pairs.push(parts);
    else if (o.wrapped && pairs.length) pairs[pairs.length - 1][1] += ' ' + line;
    else pairs.push([line, '']);
  }
  const warnings: string[] = [];
  return { layout, pairs: layout === 'tab' || layout === 'triple-bar' ? pairs : orient(pairs, o, warnings), blanks, warnings };
}

function groups(lines: string[]): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  for (const l of lines) {
    if (isBlank(l) || MARKER.test(l)) {
      if (cur.length) out.push(cur);
      cur = [];
    } else cur.push(l);
  }
  if (cur.length) out.push(cur);
  return out;
}

function coverage(lines: string[], test: (l: string) => boolean): number {
  const ne = lines.filter((l) => !isBlank(l));
  return ne.length ? ne.filter(test).length / ne.length : 0;
}

/** Finds the layout of bilingual lines; null when none fits. */
export function detectLineLayout(lines: string[], o: LineLayoutOptions): LineLayoutResult | null {
  const nonBlank = lines.filter((l) => !isBlank(l));
  if (nonBlank.length === 0) return null;

  if (coverage(lines, (l) => l.includes('\t')) >= 0.6) return byColumns(lines, '\t', 'tab', o);
  if (coverage(lines, (l) => l.includes('|||')) >= 0.6) return byColumns(lines, '|||', 'triple-bar', o);

  // Two aligned blocks separated by a marker line, or exactly two blank-separated blocks.
  const markerIdx = lines.findIndex((l) => MARKER.test(l));
  const g = groups(lines);
  if ((markerIdx >= 0 && lines.filter((l) => MARKER.test(l)).length === 1) || (g.length === 2 && g[0].length > 0)) {
    const [a, b] =
      markerIdx >= 0 ? [lines.slice(0, markerIdx).filter((l) => !isBlank(l)), lines.slice(markerIdx + 1).filter((l) => !isBlank(l))] : [g[0], g[1]];
    if (a.length && b.length && (g.length === 2 || markerIdx >= 0)) {
      const warnings: string[] = [];
      let pairs: Array<[string, string]>;
      if (a.length === b.length) pairs = a.map((x, i) => [x, b[i]]);
      else {
        const aligned = alignToPairs(a, b);
        pairs = aligned.pairs;
        warnings.push(
          `the two blocks have ${a.length} and ${b.length} lines; they were aligned by sentence length and anchors (${aligned.unmatched} line(s) left unpaired)`,
        );
        return { layout: 'two-blocks', pairs: orient(pairs, o, warnings), blanks: 0, unpaired: aligned.unmatched, warnings };
      }
      return { layout: 'two-blocks', pairs: orient(pairs, o, warnings), blanks: 0, warnings };
    }
  }

  // Groups of exactly two lines separated by blank lines.
  const twoLineGroups = g.filter((x) => x.length === 2);
  // In PDFs a wrapped paragraph is also "two lines": there the two lines must read as two languages.
  const pairGroupsOk = !o.wrapped || alternatesLanguages(twoLineGroups.flatMap((x) => x));
  if (g.length >= 3 && twoLineGroups.length / g.length >= 0.8 && pairGroupsOk) {
    const pairs: Array<[string, string]> = [];
    for (const grp of g) {
      if (grp.length === 2) pairs.push([grp[0], grp[1]]);
      else for (const l of grp) pairs.push([l, '']);
    }
    const warnings: string[] = [];
    return { layout: 'pair-groups', pairs: orient(pairs, o, warnings), blanks: lines.length - nonBlank.length, warnings };
  }

  // `src — tgt` style entries.
  const seps: Array<[RegExp, number]> = [
    [/\s+[—–]\s+/, 0.6],
    [/\s+=\s+/, 0.6],
    [/\s+-\s+/, 0.7],
    [/\s*:\s+/, 0.75],
  ];
  let best: [RegExp, number] | null = null;
  for (const [re, min] of seps) {
    const cov = coverage(lines, (l) => re.test(l) && !/^\s*[—–=:-]/.test(l));
    if (cov >= min && (!best || cov > best[1])) best = [re, cov];
  }
  if (best) return byColumns(lines, best[0], 'separator', o);

  // Alternating languages, line by line.
  if (nonBlank.length >= 4) {
    if (alternatesLanguages(nonBlank)) {
      const pairs: Array<[string, string]> = [];
      for (let i = 0; i < nonBlank.length; i += 2) pairs.push([nonBlank[i], nonBlank[i + 1] ?? '']);
      const warnings: string[] = [];
      return { layout: 'alternating', pairs: orient(pairs, o, warnings), blanks: lines.length - nonBlank.length, warnings };
    }
  }
  return null;
}
