import { planSeed } from './seed-plan';

const limits = { maxFiles: 3, maxFileBytes: 1000 };
const f = (dir: string, name: string, size = 10) => ({ dir, name, size });

describe('planSeed', () => {
  it('builds one agent per language-pair folder, from train.* only when the folder has training files', () => {
    const plan = planSeed(
      'corpora',
      [f('es-gn', 'train.es'), f('es-gn', 'train.gn'), f('es-gn', 'dev.es'), f('es-gn', 'dev.gn'), f('en-quy', 'memory.tmx'), f('en-quy', 'README.md')],
      limits,
    );
    expect(plan.groups).toEqual([
      { dir: 'en-quy', srcLang: 'en', tgtLang: 'quy', files: [f('en-quy', 'memory.tmx')] },
      { dir: 'es-gn', srcLang: 'es', tgtLang: 'gn', files: [f('es-gn', 'train.es'), f('es-gn', 'train.gn')] },
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it('takes the seed folder itself when it is named after a language pair', () => {
    expect(planSeed('ES-Shp', [f('', 'pairs.tsv')], limits).groups).toEqual([{ dir: '', srcLang: 'es', tgtLang: 'shp', files: [f('', 'pairs.tsv')] }]);
  });

  it('reports folders that name no language pair and files beyond the upload limits instead of sending them', () => {
    const plan = planSeed(
      'corpora',
      [
        f('', 'loose.tsv'),
        f('misc', 'a.tsv'),
        f('es-aym', 'big.tsv', 5000),
        f('es-aym', 'a.tsv'),
        f('es-aym', 'b.tsv'),
        f('es-aym', 'c.tsv'),
        f('es-aym', 'd.tsv'),
      ],
      limits,
    );
    expect(plan.groups).toEqual([{ dir: 'es-aym', srcLang: 'es', tgtLang: 'aym', files: [f('es-aym', 'a.tsv'), f('es-aym', 'b.tsv'), f('es-aym', 'c.tsv')] }]);
    expect(plan.skipped).toEqual([
      { path: '.', reason: 'not a <source>-<target> language folder' },
      { path: 'es-aym/big.tsv', reason: 'larger than 1000 bytes' },
      { path: 'es-aym/d.tsv', reason: 'more than 3 files in one folder' },
      { path: 'misc', reason: 'not a <source>-<target> language folder' },
    ]);
  });
});
