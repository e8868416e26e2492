import { OperatorAgentsUseCase } from '../agents.use-case';
import type { OperatorCommand } from './command';

export const agentsRebuildCommand: OperatorCommand = {
  words: ['agents', 'rebuild'],
  args: '<id>',
  summary: 'learns an agent again from its stored pairs and waits until the new version serves',
  arity: 1,
  run: (app, [id]) => app.get(OperatorAgentsUseCase).rebuild(id),
};

export const agentsPublishCommand: OperatorCommand = {
  words: ['agents', 'publish'],
  args: '<id>',
  summary: 'makes an agent public',
  arity: 1,
  run: (app, [id]) => app.get(OperatorAgentsUseCase).publish(id),
};
