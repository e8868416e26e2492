import { OperatorCorporaUseCase } from '../corpora.use-case';
import type { OperatorCommand } from './command';

export const corporaListCommand: OperatorCommand = {
  words: ['corpora', 'list'],
  args: '<src> <tgt>',
  summary: 'public corpora of the catalogue (PUBLIC_CORPORA_URL) for a language pair: name, pairs, size, license, format',
  arity: 2,
  run: (app, [src, tgt]) => app.get(OperatorCorporaUseCase).list(src, tgt),
};

export const corporaImportCommand: OperatorCommand = {
  words: ['corpora', 'import'],
  args: '<src> <tgt> <corpus> [--format=moses|tmx] [--agent=<id>]',
  summary: 'imports a public corpus into a new public agent (system account) or an existing agent, license recorded',
  arity: 3,
  run: (app, [src, tgt, corpus], flags) =>
    app.get(OperatorCorporaUseCase).import(src, tgt, corpus, {
      format: typeof flags['format'] === 'string' ? flags['format'] : undefined,
      agentId: typeof flags['agent'] === 'string' ? flags['agent'] : undefined,
    }),
};
