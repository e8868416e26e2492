import { parseCommandLine, render, usage } from './operator-cli';

describe('gaia command line', () => {
  it('maps words to a command and keeps the rest as arguments and flags', () => {
    const p = parseCommandLine(['plan', 'set', 'ana@example.org', 'starter', '--json']);
    expect('command' in p && p.command.words).toEqual(['plan', 'set']);
    expect('command' in p && p.args).toEqual(['ana@example.org', 'starter']);
    expect('command' in p && p.flags).toEqual({ json: true });
    const seed = parseCommandLine(['seed', './corpora']);
    expect('command' in seed && [seed.command.words, seed.args]).toEqual([['seed'], ['./corpora']]);
  });

  it('answers a usage error for an unknown command or missing arguments', () => {
    expect(parseCommandLine(['users', 'drop'])).toEqual({ error: 'Unknown command: users drop' });
    expect(parseCommandLine(['keys', 'rate-limit', 'abc'])).toEqual({ error: 'Usage: gaia keys rate-limit <prefix> <N>' });
    expect(parseCommandLine([])).toEqual({ error: 'No command given.' });
  });

  it('lists every command in the usage text', () => {
    for (const c of [
      'users list',
      'users show',
      'plan set',
      'plans requests',
      'keys rate-limit',
      'agents rebuild',
      'agents publish',
      'outbox status',
      'outbox retry',
      'seed',
      'corpora list',
      'corpora import',
    ])
      expect(usage()).toContain(`gaia ${c}`);
  });

  it('renders lists as tables and records as key: value lines', () => {
    expect(
      render([
        { id: 'a', n: 1 },
        { id: 'bb', n: null },
      ]),
    ).toBe('id  n\na   1\nbb  -');
    expect(render({ pending: 2, subscribers: [{ name: 'agents', lag: 3 }] })).toBe('pending: 2\nsubscribers:\n  name    lag\n  agents  3');
  });
});
