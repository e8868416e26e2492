import { tokenize } from './tokenize';
import { buildVocab, modelTokens, WordIndex } from './vocabulary';

describe('WordIndex (word ids of a loaded vocabulary)', () => {
  const words = ['<unk>', '<s>', '</s>', 'de', 'la', 'ñandú', 'mba’e', 'casa', 'cosa', '', 'a b'];

  it('finds every word as a Map filled in id order does', () => {
    const index = new WordIndex(words);
    const map = new Map(words.map((w, i) => [w, i]));
    for (const w of [...words, 'perro', 'De', 'ñandu', 'cas', 'casas', ' ']) {
      expect(index.get(w)).toBe(map.get(w));
      expect(index.has(w)).toBe(map.has(w));
    }
    expect(index.size).toBe(map.size);
  });

  it('gives a word listed twice its last id', () => {
    const index = new WordIndex(['<unk>', 'x', 'y', 'x']);
    expect(index.get('x')).toBe(3);
    expect(index.size).toBe(3);
  });

  it('keeps many words apart (probing past collisions)', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
    const index = new WordIndex(many);
    many.forEach((w, i) => expect(index.get(w)).toBe(i));
    expect(index.get('w-1')).toBeUndefined();
  });
});

describe('buildVocab casing', () => {
  const vocab = (lines: string[]) => buildVocab(lines.map(modelTokens), lines.map(tokenize));
  const cased = (v: ReturnType<typeof buildVocab>, w: string) => v.cased[v.index.get(w) ?? 0];

  it('keeps the capital of a word written so inside its sentences (a name)', () => {
    const v = vocab(['vivo en Lima.', 'ella va a Lima.', 'la lima es verde.']);
    expect(cased(v, 'lima')).toBe('Lima');
  });

  it('does not take the capital a word has only for opening a sentence, after a full stop or an opening mark', () => {
    // 'qué' opens three questions ('¿Qué …?', '… . Qué …') and is written in lower case inside one sentence
    const v = vocab(['¿Qué hora es?', 'Sí. Qué bien.', '¡Qué frío!', 'no sé qué hora es.']);
    expect(cased(v, 'qué')).toBe('');
    expect(cased(v, 'hora')).toBe('');
  });
});
