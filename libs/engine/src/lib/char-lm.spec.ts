import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArtifactReader, ArtifactWriter } from './artifact-codec';
import { CharLm } from './char-lm';
import { PIECE_MARK } from './subword';

/** A side whose words take -kuna then -pi, in that order, and whose words are open syllables ('wasikunapi'). */
const STEMS = ['wasi', 'mayu', 'llaqta', 'chakra', 'sacha', 'runa', 'wayqi', 'pampa', 'qucha', 'urqu'];
const VERBS = ['puriy', 'tiyay', 'takiy', 'mikuy'];
const lines = STEMS.flatMap((s) => VERBS.map((v) => [s, `${PIECE_MARK}kuna`, `${PIECE_MARK}pi`, v, '.']));
const lm = CharLm.train(lines);
const FIXTURES = path.join(__dirname, '../testing/fixtures');

const score = (toks: string[], end = false, ctx = CharLm.START): number => lm.logProbOf(ctx, lm.span(toks), end);

describe('character LM', () => {
  it('reads suffixes in the order the side writes them, also on a stem it never saw', () => {
    // 'qasa' is no word of the side: only the suffixes' order tells the two apart
    expect(score(['qasa', `${PIECE_MARK}kuna`, `${PIECE_MARK}pi`])).toBeGreaterThan(score(['qasa', `${PIECE_MARK}pi`, `${PIECE_MARK}kuna`]) + 2);
    // a piece joins the word before it: the same text written as one word scores the same
    expect(score(['wasikunapi'])).toBeCloseTo(score(['wasi', `${PIECE_MARK}kuna`, `${PIECE_MARK}pi`]), 10);
  });

  it('prefers words spelled as the side spells them over the same length of letters it never writes', () => {
    expect(score(['tuyaku'])).toBeGreaterThan(score(['brxzgf']) + 10);
    // a word and the sentence's end: '.' closes the side's sentences, and nothing follows it
    expect(score(['mikuy', '.'], true)).toBeGreaterThan(score(['mikuy', '.', 'wasi'], true));
  });

  it('gives a proper distribution over the next character (sums to 1), characters it never saw included', () => {
    // after 'wa' (a context of three characters with the sentence's start: its n-grams are all stored)
    const ctx = lm.contextAfter(CharLm.START, lm.span(['wa']), false);
    const letters = [...new Set(lines.flat().join('').replace(new RegExp(PIECE_MARK, 'g'), ''))];
    let sum = 0;
    for (const c of letters) sum += Math.exp(score([`${PIECE_MARK}${c}`], false, ctx));
    // a character outside the alphabet (one class for them all), the space before the next word, the sentence's end
    sum += Math.exp(score([`${PIECE_MARK}ж`], false, ctx));
    sum += Math.exp(score([''], false, ctx));
    sum += Math.exp(score([], true, ctx));
    // (log-probabilities are held as 32-bit floats)
    expect(sum).toBeCloseTo(1, 5);
  });

  it('reads a context whose oldest character has an id of 128 or more as any other (the sign bit of its 32 bits)', () => {
    // 130 characters (without case) commoner than 'ʁ', so its id is above 128: after 'ʁwas' the context's top byte has
    // its high bit set; 'ʁwasi' is written twice, so its 5-gram is stored (the next characters are a proper distribution)
    const fillers = Array.from({ length: 130 }, (_, x) => String.fromCharCode(0x4e00 + x)).join('');
    const side = CharLm.train([...lines, [fillers, fillers, fillers], ['ʁwasi', '.'], ['ʁwasi', '.']]);
    const ctx = side.contextAfter(CharLm.START, side.span(['ʁwas']), false);
    expect(ctx).toBeLessThan(0);
    const next = (c: string): number => Math.exp(side.logProbOf(ctx, side.span([`${PIECE_MARK}${c}`]), false));
    const chars = [...new Set([...lines.flat().join(''), ...fillers, 'ʁ'])].filter((c) => c !== PIECE_MARK);
    let sum = chars.reduce((a, c) => a + next(c), 0);
    sum += Math.exp(side.logProbOf(ctx, side.span(['']), false)) + Math.exp(side.logProbOf(ctx, side.span([]), true));
    // (log-probabilities are held as 32-bit floats)
    expect(sum).toBeCloseTo(1, 5);
    // the data writes 'ʁwasi': 'i' is the likeliest next character
    expect(chars.filter((c) => c !== 'i').every((c) => next(c) < next('i'))).toBe(true);
  });

  it('scores a span after any context as its parts one after the other (its later characters read once per span)', () => {
    for (const ctx of [CharLm.START, lm.contextAfter(CharLm.START, lm.span(['sacha']), false)]) {
      const whole = lm.logProbOf(ctx, lm.span(['wasikunapi', 'puriy', '.']), true);
      const first = lm.span(['wasi', `${PIECE_MARK}kuna`]);
      const rest = lm.span([`${PIECE_MARK}pi`, 'puriy', '.']);
      expect(whole).toBeCloseTo(lm.logProbOf(ctx, first, false) + lm.logProbOf(lm.contextAfter(ctx, first, false), rest, true), 10);
    }
  });

  it('gains nothing on the side’s own text on average, and loses on letters the side never writes', () => {
    // (the decoder adds the gain: the side's usual characters cost nothing, so the score does not shorten answers)
    let gain = 0;
    let chars = 0;
    for (const toks of lines) {
      const span = lm.span(toks);
      gain += lm.gainOf(CharLm.START, span, true);
      chars += span.ids.length;
    }
    expect(Math.abs(gain / chars)).toBeLessThan(0.01);
    expect(lm.gainOf(CharLm.START, lm.span(['brxzgf']), false)).toBeLessThan(-10);
  });

  it('reads upper case as lower case, as its data is written', () => {
    expect(score(['Wasikunapi'])).toBe(score(['wasikunapi']));
  });

  it('round-trips through an artifact: a loaded copy answers exactly as the learned model', () => {
    const w = new ArtifactWriter('TEST', 1);
    lm.write(w, 0);
    const copy = CharLm.read(ArtifactReader.open(w.finish(), 'TEST'), 0);
    // (both compute their log-probabilities from the same counts)
    for (const toks of [['wasikunapi', 'puriy', '.'], ['qasa', `${PIECE_MARK}pi`], ['brxzgf']])
      expect(copy.logProbOf(CharLm.START, copy.span(toks), true)).toBe(lm.logProbOf(CharLm.START, lm.span(toks), true));
  });

  it('stores its n-grams and their counts (the rest follows from them): under 2 bytes an n-gram', () => {
    // 3,000 sentences of words of two to four open syllables (a fixed pseudo-random sequence)
    const syllables = ['wa', 'si', 'ma', 'yu', 'lla', 'qta', 'cha', 'kra', 'ru', 'na', 'pa', 'qu', 'ur', 'ti', 'ya', 'ki', 'mi', 'ku'];
    let seed = 7;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = (): string => Array.from({ length: 2 + next(3) }, () => syllables[next(syllables.length)]).join('');
    const side = CharLm.train(Array.from({ length: 3000 }, () => [word(), `${PIECE_MARK}${['kuna', 'pi', 'manta'][next(3)]}`, word(), '.']));
    const w = new ArtifactWriter('TEST', 1);
    side.write(w, 1);
    const bytes = w.finish();
    const r = ArtifactReader.open(bytes, 'TEST');
    const grams = r.count('charGrams1');
    expect(r.count('charCounts1')).toBe(grams);
    expect(['clm1LogP', 'clm1Bow', 'clm1Ctx'].some((n) => r.has(n))).toBe(false);
    // the whole artifact, its directory and metadata included
    expect(bytes.byteLength).toBeLessThan(2 * grams);
  });

  it('cut to a lower order: a proper distribution after the last k − 1 characters, its own mean, fewer bytes', () => {
    const bytesOf = (m: CharLm): number => {
      const w = new ArtifactWriter('TEST', 1);
      m.write(w, 0);
      return w.finish().byteLength;
    };
    expect(lm.withOrder(lm.order)).toBe(lm);
    let before = bytesOf(lm);
    for (const k of [4, 3, 2, 1]) {
      const cut = lm.withOrder(k) as CharLm;
      expect(cut.order).toBe(k);
      // a loaded copy answers as the cut model
      const w = new ArtifactWriter('TEST', 1);
      cut.write(w, 0);
      const copy = CharLm.read(ArtifactReader.open(w.finish(), 'TEST'), 0);
      const ctx = cut.contextAfter(CharLm.START, cut.span(['wasi', `${PIECE_MARK}ku`]), false);
      const letters = [...new Set(lines.flat().join('').replace(new RegExp(PIECE_MARK, 'g'), ''))];
      let sum = Math.exp(cut.logProbOf(ctx, cut.span(['']), false)) + Math.exp(cut.logProbOf(ctx, cut.span([]), true));
      sum += Math.exp(cut.logProbOf(ctx, cut.span([`${PIECE_MARK}ж`]), false));
      for (const c of letters) {
        sum += Math.exp(cut.logProbOf(ctx, cut.span([`${PIECE_MARK}${c}`]), false));
        expect(copy.logProbOf(ctx, copy.span([`${PIECE_MARK}${c}`]), false)).toBe(cut.logProbOf(ctx, cut.span([`${PIECE_MARK}${c}`]), false));
      }
      expect(sum).toBeCloseTo(1, 5);
      // the mean it subtracts is its own: the side's text gains nothing on average
      let gain = 0;
      let chars = 0;
      for (const toks of lines) {
        gain += cut.gainOf(CharLm.START, cut.span(toks), true);
        chars += cut.span(toks).ids.length;
      }
      expect(Math.abs(gain / chars)).toBeLessThan(0.01);
      const bytes = bytesOf(cut);
      expect(bytes).toBeLessThan(before);
      before = bytes;
    }
    // after 'wasikuna' order 5 knows 'pi' comes next; order 2 reads 'a' alone
    const after = (m: CharLm): number => m.logProbOf(m.contextAfter(CharLm.START, m.span(['wasikuna']), false), m.span([`${PIECE_MARK}p`]), false);
    expect(after(lm)).toBeGreaterThan(after(lm.withOrder(2) as CharLm) + 1);
  });

  it('still reads the first stored form (16-bit log-probabilities and back-off weights) and answers as it did', () => {
    // written by the engine of 72f17b0 from this file's `lines` (libs/engine/src/testing/fixtures)
    const r = ArtifactReader.open(new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-char-lm-logp.bin'))), 'TEST');
    const old = CharLm.read(r, 0);
    const answers = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'toy-char-lm-logp.json'), 'utf8')) as { toks: string[]; logp: number }[];
    for (const a of answers) expect(old.logProbOf(CharLm.START, old.span(a.toks), true)).toBe(a.logp);
    // and writes itself again in that form
    const w = new ArtifactWriter('TEST', 1);
    old.write(w, 0);
    const again = CharLm.read(ArtifactReader.open(w.finish(), 'TEST'), 0);
    for (const a of answers) expect(again.logProbOf(CharLm.START, again.span(a.toks), true)).toBe(a.logp);
    // it knows the mean log-probability of its own order only: it cannot be cut
    expect(old.withOrder(3)).toBeNull();
  });
});
