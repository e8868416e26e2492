import { resolveDirection } from './translation-request.rules';

describe('translation request rules', () => {
  it('resolves the direction case-insensitively, swapped = reverse', () => {
    const agent = { srcLang: 'spanish', tgtLang: 'guarani' };
    expect(resolveDirection(agent, 'Spanish', ' guarani ')).toBe('forward');
    expect(resolveDirection(agent, 'guarani', 'spanish')).toBe('reverse');
    expect(() => resolveDirection(agent, 'spanish', 'spanish')).toThrow('cannot translate spanish to spanish');
  });
});
