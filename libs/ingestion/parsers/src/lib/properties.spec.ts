import fc from 'fast-check';
import { zipSync } from 'fflate';
import { alignSentences } from './align/gale-church';
import { detectFileKind } from './detect-file-kind';
import { isParseError } from './errors';
import { writeTmx } from './formats/tmx.parser';
import { MAX_SEGMENT_CHARS } from './limits';
import { parseFile } from './parse-file';
import { normalizeSegment } from './text/normalize';
import { SentencePair } from './types';
import { entriesPdf } from '../testing/pdf-builder';

/**
 * Round-trip properties: random pairs → serialised in each format → parsed → the same pairs, normalised
 * (NFC, collapsed whitespace) and de-duplicated. Total runs across this file: > 1,000.
 */
const enc = (s: string) => new TextEncoder().encode(s);
// CI replays one fixed seed (reproducible runs); locally every run explores new cases. A failure prints
// its seed and path: replay it with fc.assert(…, { seed, path }).
if (process.env['CI']) fc.configureGlobal({ seed: 20_261_122 });

const opts = { srcLang: 'es', tgtLang: 'gn' };

const words = fc.stringMatching(/^[a-zA-ZñÑáéíóúãẽĩõũỹ’' ]{1,25}$/);
const anyText = fc.string({ unit: 'grapheme', minLength: 0, maxLength: 30 });
const spacey = fc.constantFrom('  Hola   mundo ', 'Cafe\u0301', 'mba’e\u00A0porã', '\u200Bjagua', 'a\u3000b');
const segment = fc.oneof(words, anyText, spacey);
/** A segment that fits on one line of a line-oriented format. */
const lineSegment = segment.map((s) => s.replace(/[\t\r\n\u2028\u2029\u000B\u000C\u0085|]/g, ' '));

const pairsOf = (seg: fc.Arbitrary<string>) => fc.array(fc.tuple(seg, seg), { minLength: 1, maxLength: 25 });

function expected(raw: Array<[string, string]>): SentencePair[] {
  const seen = new Set<string>();
  const out: SentencePair[] = [];
  for (const [a, b] of raw) {
    const source = normalizeSegment(a);
    const target = normalizeSegment(b);
    if (!source || !target || source.length > MAX_SEGMENT_CHARS || target.length > MAX_SEGMENT_CHARS) continue;
    const k = source + '\u0000' + target;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ source, target });
  }
  return out;
}

async function roundTrip(filename: string, bytes: Uint8Array, raw: Array<[string, string]>, extra: Partial<Parameters<typeof parseFile>[0]> = {}) {
  const want = expected(raw);
  try {
    const r = await parseFile({ filename, bytes, ...opts, ...extra });
    expect(r.pairs).toEqual(want);
    expect(r.stats.duplicates + r.stats.empty + r.stats.oneSided + r.pairs.length + r.stats.tooLong + r.stats.invalid).toBe(r.stats.lines);
  } catch (e) {
    // The only acceptable failure: nothing usable in the input.
    if (!(isParseError(e) && (e.code === 'NO_PAIRS' || e.code === 'EMPTY_FILE') && want.length === 0)) throw e;
  }
}

const csvField = (s: string) => `"${s.replace(/"/g, '""')}"`;

describe('parsers: property-based round trips', () => {
  it('JSON [{"source","target"}]', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(segment), (raw) => roundTrip('p.json', enc(JSON.stringify(raw.map(([source, target]) => ({ source, target })))), raw)),
      { numRuns: 120 },
    ));

  it('JSON {"src","tgt"} inside {"pairs": […]}', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(segment), (raw) => roundTrip('p.json', enc(JSON.stringify({ pairs: raw.map(([src, tgt]) => ({ src, tgt })) })), raw)),
      { numRuns: 80 },
    ));

  it('JSON keyed by language code', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(segment), (raw) => roundTrip('p.json', enc(JSON.stringify(raw.map(([es, gn]) => ({ gn, es })))), raw)),
      { numRuns: 80 },
    ));

  it('JSON [[src, tgt]]', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(segment), (raw) => roundTrip('p.json', enc(JSON.stringify(raw)), raw)),
      { numRuns: 80 },
    ));

  it('JSONL', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(segment), (raw) => roundTrip('p.jsonl', enc(raw.map(([source, target]) => JSON.stringify({ source, target })).join('\n')), raw)),
      { numRuns: 100 },
    ));

  it('CSV with header and quoted fields', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(segment), (raw) =>
        roundTrip('p.csv', enc('source,target\r\n' + raw.map(([a, b]) => `${csvField(a)},${csvField(b)}`).join('\r\n')), raw),
      ),
      { numRuns: 100 },
    ));

  it('TSV with header', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(lineSegment), (raw) =>
        roundTrip(
          'p.tsv',
          enc('es\tgn\n' + raw.map(([a, b]) => `${a.replace(/"/g, '')}\t${b.replace(/"/g, '')}`).join('\n')),
          raw.map(([a, b]) => [a.replace(/"/g, ''), b.replace(/"/g, '')] as [string, string]),
        ),
      ),
      { numRuns: 80 },
    ));

  it('TXT tab-separated', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(lineSegment), (raw) => roundTrip('p.txt', enc('source\ttarget\n' + raw.map(([a, b]) => `${a}\t${b}`).join('\n')), raw)),
      { numRuns: 80 },
    ));

  it('TXT "src ||| tgt"', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(lineSegment), (raw) => roundTrip('p.txt', enc('source ||| target\n' + raw.map(([a, b]) => `${a} ||| ${b}`).join('\n')), raw)),
      { numRuns: 80 },
    ));

  it('TMX', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(segment), fc.constantFrom(['es', 'gn'], ['ES-pe', 'gn-PY'], ['spa', 'grn']), (raw, [s, t]) =>
        roundTrip(
          'p.tmx',
          enc(
            writeTmx(
              raw.map(([source, target]) => ({ source, target })),
              s,
              t,
            ),
          ),
          raw,
        ),
      ),
      { numRuns: 100 },
    ));

  it('Moses x.es + x.gn', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(lineSegment), (raw) =>
        roundTrip('c.es', enc(raw.map((p) => p[0]).join('\n') + '\n'), raw, {
          companion: { filename: 'c.gn', bytes: enc(raw.map((p) => p[1]).join('\n') + '\n') },
        }),
      ),
      { numRuns: 80 },
    ));

  it('ZIP of JSON files', () =>
    fc.assert(
      fc.asyncProperty(pairsOf(segment), (raw) => roundTrip('p.zip', zipSync({ 'a.json': enc(JSON.stringify(raw)) }), raw)),
      { numRuns: 40 },
    ));

  it(
    'PDF "source — target" entries (built with pdfkit)',
    () =>
      fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(
            fc.tuple(fc.stringMatching(/^[a-záéíóúñ]{2,12}( [a-záéíóúñ]{2,12}){0,3}$/), fc.stringMatching(/^[a-záéíóúñ]{2,12}( [a-záéíóúñ]{2,12}){0,3}$/)),
            { minLength: 3, maxLength: 12, selector: (p) => p[0] },
          ),
          async (raw) => {
            const r = await parseFile({ filename: 'e.pdf', bytes: await entriesPdf(raw), ...opts });
            const got = r.pairs;
            // Orientation may legitimately flip when the stop-word signal says so; the pairing must hold.
            const flipped = got.length && expected(raw)[0].source !== got[0].source;
            expect(flipped ? got.map((p) => ({ source: p.target, target: p.source })) : got).toEqual(expected(raw));
          },
        ),
        { numRuns: 25 },
      ),
    120_000,
  );

  it('normalisation is idempotent and NFC', () =>
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
        const n = normalizeSegment(s);
        expect(normalizeSegment(n)).toBe(n);
        expect(n).toBe(n.normalize('NFC'));
        expect(n).not.toMatch(/^\s|\s$|\s\s/);
      }),
      { numRuns: 200 },
    ));

  it('Gale–Church aligns parallel sentences of proportional length one to one', () =>
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 5, max: 120 }), { minLength: 1, maxLength: 40 }),
        fc.double({ min: 0.8, max: 1.25, noNaN: true }),
        (lens, ratio) => {
          const a = lens.map((l) => 'a'.repeat(l));
          const b = lens.map((l) => 'b'.repeat(Math.max(1, Math.round(l * ratio))));
          const beads = alignSentences(a, b);
          expect(beads.map((x) => [x.source, x.target])).toEqual(lens.map((_, i) => [[i], [i]]));
        },
      ),
      { numRuns: 100 },
    ));

  it(
    'random bytes never crash: a result or a ParseError',
    () =>
      fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ maxLength: 400 }),
          fc.constantFrom('a.json', 'a.txt', 'a.pdf', 'a.tmx', 'a.csv', 'a.zip', 'a.es', 'a.jsonl', 'noext'),
          fc.constantFrom(new Uint8Array(0), enc('%PDF-1.4\n'), enc('PK\u0003\u0004'), new Uint8Array([0x1f, 0x8b]), enc('[{"source":'), enc('<tmx><body>')),
          async (body, name, prefix) => {
            const bytes = new Uint8Array([...prefix, ...body]);
            expect(() => detectFileKind(name, bytes)).not.toThrow();
            await parseFile({ filename: name, bytes, ...opts }).then(
              (r) => expect(Array.isArray(r.pairs)).toBe(true),
              (e) => {
                expect(isParseError(e)).toBe(true);
                expect(e.message.startsWith(`${name}: `)).toBe(true);
              },
            );
          },
        ),
        { numRuns: 150 },
      ),
    120_000,
  );
});
