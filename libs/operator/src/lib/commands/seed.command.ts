import { SeedUseCase } from '../seed/seed.use-case';
import type { OperatorCommand } from './command';

export const seedCommand: OperatorCommand = {
  words: ['seed'],
  args: '<folder>',
  summary: 'builds public agents (system account) from <src>-<tgt> folders of parallel files',
  arity: 1,
  run: (app, [folder]) => app.get(SeedUseCase).seed(folder),
};
