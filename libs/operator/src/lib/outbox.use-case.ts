import { Injectable } from '@nestjs/common';
import { DomainError } from '@gaia/shared/kernel';
import { OPERATOR_LIST_LIMIT } from './operator.tokens';
import { OutboxStatusRepository, type DeadLetter, type SubscriberLag } from './outbox-status.repository';

export interface OutboxStatus {
  pending: number;
  dead: number;
  /** Age in seconds of the oldest undelivered event, over every subscriber. */
  lag_seconds: number;
  subscribers: SubscriberLag[];
  jobs: { pending: number; running: number; failed: number };
  dead_letters: DeadLetter[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `gaia outbox status|retry`: event delivery lag, dead letters, and putting dead letters back in the queue. */
@Injectable()
export class OperatorOutboxUseCase {
  constructor(private readonly repo: OutboxStatusRepository) {}

  async status(): Promise<OutboxStatus> {
    const [subscribers, jobs, deadLetters] = await Promise.all([this.repo.lagBySubscriber(), this.repo.jobCounts(), this.repo.deadLetters(OPERATOR_LIST_LIMIT)]);
    return {
      pending: subscribers.reduce((n, s) => n + s.pending, 0),
      dead: subscribers.reduce((n, s) => n + s.dead, 0),
      lag_seconds: subscribers.reduce((n, s) => Math.max(n, s.lag_seconds), 0),
      subscribers,
      jobs,
      dead_letters: deadLetters,
    };
  }

  async retry(eventId?: string): Promise<{ requeued: number }> {
    if (eventId !== undefined && !UUID.test(eventId)) throw DomainError.invalid(`Not an event id: ${eventId}.`, 'invalid_event_id');
    return { requeued: await this.repo.retryDead(eventId) };
  }
}
