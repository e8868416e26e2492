import { OperatorKeysUseCase } from '../keys.use-case';
import type { OperatorCommand } from './command';

export const keysRateLimitCommand: OperatorCommand = {
  words: ['keys', 'rate-limit'],
  args: '<prefix> <N>',
  summary: "sets an API key's daily request limit",
  arity: 2,
  run: (app, [prefix, n]) => app.get(OperatorKeysUseCase).setRateLimit(prefix, n),
};
