import { OperatorUsersUseCase } from '../users.use-case';
import type { OperatorCommand } from './command';

export const usersListCommand: OperatorCommand = {
  words: ['users', 'list'],
  args: '',
  summary: 'accounts, oldest first',
  arity: 0,
  run: (app) => app.get(OperatorUsersUseCase).list(),
};

export const usersShowCommand: OperatorCommand = {
  words: ['users', 'show'],
  args: '<email|id>',
  summary: 'one account with its plan, API keys (metadata) and agents',
  arity: 1,
  run: (app, [who]) => app.get(OperatorUsersUseCase).show(who),
};
