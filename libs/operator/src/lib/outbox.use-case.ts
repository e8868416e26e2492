import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@gaia/shared/kernel';
import { MESSAGING_STATUS, type DeadLetter, type JobCounts, type MessagingStatusPort } from '@gaia/shared/messaging';
import { OPERATOR_LIST_LIMIT } from './operator.tokens';

export interface SubscriberLag {
  subscriber: string;
  pending: number;
  /** Seconds since the oldest undelivered event of this subscriber was written (0 when none). */
  lag_seconds: number;
  dead: number;
}

export interface OutboxStatus {
  pending: number;
  dead: number;
  /** Age in seconds of the oldest undelivered event, over every subscriber. */
  lag_seconds: number;
  subscribers: SubscriberLag[];
  jobs: JobCounts;
  dead_letters: DeadLetter[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `gaia outbox status|retry`: event delivery lag, dead letters, and putting dead letters back in the queue. */
@Injectable()
export class OperatorOutboxUseCase {
  constructor(@Inject(MESSAGING_STATUS) private readonly messaging: MessagingStatusPort) {}

  async status(): Promise<OutboxStatus> {
    const [backlog, jobs, deadLetters] = await Promise.all([
      this.messaging.backlogBySubscriber(),
      this.messaging.jobCounts(),
      this.messaging.deadLetters(OPERATOR_LIST_LIMIT),
    ]);
    const subscribers: SubscriberLag[] = backlog.map((b) => ({
      subscriber: b.subscriber,
      pending: b.pending,
      lag_seconds: Math.round(b.lagSeconds),
      dead: b.dead,
    }));
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
    return { requeued: await this.messaging.retryDead(eventId) };
  }
}
