import { OperatorOutboxUseCase } from '../outbox.use-case';
import type { OperatorCommand } from './command';

export const outboxStatusCommand: OperatorCommand = {
  words: ['outbox', 'status'],
  args: '',
  summary: 'event delivery lag per subscriber, dead letters, jobs',
  arity: 0,
  run: (app) => app.get(OperatorOutboxUseCase).status(),
};

export const outboxRetryCommand: OperatorCommand = {
  words: ['outbox', 'retry'],
  args: '[event-id]',
  summary: 'puts dead letters (all, or one event) back in the delivery queue',
  arity: 0,
  run: (app, [eventId]) => app.get(OperatorOutboxUseCase).retry(eventId),
};
