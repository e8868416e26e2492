import { buildCandidatePrompt, buildRefinePrompt, cleanTranslation } from './prompts';

const ctx = {
  from: 'guarani',
  to: 'spanish',
  text: 'che róga',
  learnedSummary: 'SUMMARY',
  ownerNotes: 'NOTES',
  customPrompt: '',
  examples: [{ id: 'a', source: 'ka’aru\nporã', target: 'buenas tardes', score: 1 }],
  lexicon: [{ term: 'róga', translations: ['casa'] }],
};

describe('prompts', () => {
  it('phase 1 holds core memory, examples (one line each), lexicon and the source', () => {
    const [system, user] = buildCandidatePrompt(ctx);
    expect(system.content).toContain('SUMMARY');
    expect(system.content).toContain('NOTES');
    expect(user.content).toContain('1. guarani: ka’aru porã\n   spanish: buenas tardes');
    expect(user.content).toContain('- róga → casa');
    expect(user.content).toContain('<source>\nche róga\n</source>');
  });

  it('phase 2 labels candidates by origin', () => {
    const [, user] = buildRefinePrompt(ctx, [
      { text: 'mi casa', origin: 'llm' },
      { text: 'casa mía', origin: 'builtin' },
    ]);
    expect(user.content).toContain('1. [sampled] mi casa\n2. [built-in engine draft] casa mía');
  });

  it('cleans labels, numbering, quotes and extra lines', () => {
    expect(cleanTranslation('Translation: "mi casa"\n\n(note: informal)')).toBe('mi casa');
    expect(cleanTranslation('  1. «mi casa»  ')).toBe('mi casa');
    expect(cleanTranslation('line one\nline two', true)).toBe('line one\nline two');
    expect(cleanTranslation('   ')).toBe('');
  });
});
