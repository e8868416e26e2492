import { ParseError } from '../errors';
import { baseLanguage, sameLanguage } from '../lang/languages';
import { PairCollector } from '../pair-collector';
import { ParseOptions, ParseResult } from '../types';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00A0' };

export function decodeXmlText(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** Text of a <seg>: CDATA kept, inline native codes (bpt/ept/ph/it/ut) dropped, other tags unwrapped. */
export function segText(inner: string): string {
  let s = inner.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
  s = s.replace(/<(bpt|ept|ph|it|ut)\b[^>]*\/>/gi, '');
  s = s.replace(/<(bpt|ept|ph|it|ut)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '');
  s = s.replace(/<[^>]+>/g, '');
  return decodeXmlText(s);
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return m ? decodeXmlText(m[2] ?? m[3] ?? '') : undefined;
}

/** TMX 1.1–1.4b: translation units matched by xml:lang (or lang), tolerant of case and region (es-PE). */
export function parseTmxText(filename: string, text: string, o: ParseOptions): ParseResult {
  if (!/<tmx[\s>]/i.test(text) || !/<body[\s>]/i.test(text)) {
    throw new ParseError('MALFORMED', filename, 'not a TMX document (no <tmx> with a <body>)');
  }
  const headerTag = /<header\b[^>]*>/i.exec(text)?.[0] ?? '';
  const headerSrc = attr(headerTag, 'srclang');
  const units: Array<Array<{ lang: string; text: string }>> = [];
  const tuRe = /<tu\b[^>]*>([\s\S]*?)<\/tu\s*>/gi;
  let m: RegExpExecArray | null;
  while ((m = tuRe.exec(text))) {
    const tuvs: Array<{ lang: string; text: string }> = [];
    const tuvRe = /<tuv\b([^>]*)>([\s\S]*?)<\/tuv\s*>/gi;
    let t: RegExpExecArray | null;
    while ((t = tuvRe.exec(m[1]))) {
      const lang = attr(`<tuv ${t[1]}>`, 'xml:lang') ?? attr(`<tuv ${t[1]}>`, 'lang') ?? '';
      const seg = /<seg\b[^>]*>([\s\S]*?)<\/seg\s*>/i.exec(t[2]);
      tuvs.push({ lang, text: seg ? segText(seg[1]) : '' });
    }
    units.push(tuvs);
  }
  if (!units.length) throw new ParseError('NO_PAIRS', filename, 'no translation units (<tu>) found');
  const langs = [
    ...new Set(
      units
        .flat()
        .map((u) => baseLanguage(u.lang))
        .filter(Boolean),
    ),
  ];
  let src = langs.find((l) => sameLanguage(l, o.srcLang));
  let tgt = langs.find((l) => sameLanguage(l, o.tgtLang));
  const c = new PairCollector(filename, o.maxPairs);
  if (!src || !tgt) {
    const others = langs.filter((l) => l !== src && l !== tgt);
    if (langs.length === 2 && (src || tgt)) {
      if (!src) src = others[0];
      else tgt = others[0];
      c.warn(
        `${filename}: the TMX has no "${!langs.some((l) => sameLanguage(l, o.srcLang)) ? o.srcLang : o.tgtLang}" segments; "${src === others[0] ? src : tgt}" was used instead`,
      );
    } else if (langs.length === 2) {
      const hs = headerSrc && langs.find((l) => sameLanguage(l, headerSrc));
      src = hs || langs[0];
      tgt = langs.find((l) => l !== src);
      c.warn(`${filename}: the TMX languages are ${langs.join(' and ')}, not ${o.srcLang} and ${o.tgtLang}; ${src} was read as the source`);
    } else {
      throw new ParseError('NO_PAIRS', filename, `the TMX has no ${o.srcLang}/${o.tgtLang} segments (languages found: ${langs.join(', ') || 'none'})`);
    }
  }
  for (const tu of units) {
    const s = tu.find((u) => baseLanguage(u.lang) === src);
    const t = tu.find((u) => baseLanguage(u.lang) === tgt);
    c.add(s?.text ?? '', t?.text ?? '');
  }
  return c.finish('tmx');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The lines of a TMX 1.4b document before its units. */
export function tmxOpening(srcLang: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    `  <header creationtool="gaia" creationtoolversion="1" segtype="sentence" o-tmf="gaia" adminlang="en" srclang="${esc(srcLang)}" datatype="plaintext"/>`,
    '  <body>',
    '',
  ].join('\n');
}

/** One pair as a TMX unit line. */
export function tmxUnit(p: { source: string; target: string }, srcLang: string, tgtLang: string): string {
  return `    <tu><tuv xml:lang="${esc(srcLang)}"><seg>${esc(p.source)}</seg></tuv><tuv xml:lang="${esc(tgtLang)}"><seg>${esc(p.target)}</seg></tuv></tu>\n`;
}

/** The lines of a TMX document after its units. */
export const TMX_CLOSING = '  </body>\n</tmx>\n';

/** Writes pairs as TMX 1.4b (tests; dataset downloads write it unit by unit with the parts above). */
export function writeTmx(pairs: Array<{ source: string; target: string }>, srcLang: string, tgtLang: string): string {
  return tmxOpening(srcLang) + pairs.map((p) => tmxUnit(p, srcLang, tgtLang)).join('') + TMX_CLOSING;
}
