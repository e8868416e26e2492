import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { eventDefinition, isTopic, type ConsumerName, type EventEnvelope, type EventMap, type Topic } from '@gaia/contracts';
import { DATA_SOURCE } from '@gaia/shared/database';
import { DomainError } from '@gaia/shared/kernel';
import { MessagingActivity } from './activity';

export type EventHandlerFn<T extends Topic = Topic> = (payload: EventMap[T], em: EntityManager, envelope: EventEnvelope<EventMap[T]>) => Promise<void> | void;

export interface ConsumeResult {
  ack: true;
  duplicate: boolean;
}

/** Applies each event at most once per consumer group: inbox row + handler in one transaction. */
@Injectable()
export class InboxService {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly activity: MessagingActivity,
  ) {}

  /** Validates the envelope and payload (a bad one is rejected as poison, never retried). */
  parse(raw: unknown): EventEnvelope {
    const env = raw as Partial<EventEnvelope> | null;
    if (!env || typeof env !== 'object' || typeof env.id !== 'string' || typeof env.topic !== 'string' || !isTopic(env.topic)) {
      throw new DomainError('invalid_event', 'Malformed event envelope', 422);
    }
    const result = eventDefinition(env.topic).schema.safeParse(env.payload);
    if (!result.success) {
      throw new DomainError(
        'invalid_event',
        `Invalid payload for ${env.topic}: ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
        422,
      );
    }
    return {
      id: env.id,
      topic: env.topic,
      key: env.key ?? null,
      occurredAt: env.occurredAt ?? new Date().toISOString(),
      payload: result.data,
      requestId: env.requestId ?? null,
    };
  }

  consume<T extends Topic>(consumer: ConsumerName, raw: unknown, handler: EventHandlerFn<T>): Promise<ConsumeResult> {
    return this.activity.track(async () => {
      const envelope = this.parse(raw) as EventEnvelope<EventMap[T]>;
      return this.ds.transaction(async (em) => {
        const rows: unknown[] = await em.query(
          `INSERT INTO inbox_message (consumer, event_id, topic) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING event_id`,
          [consumer, envelope.id, envelope.topic],
        );
        if (rows.length === 0) return { ack: true as const, duplicate: true };
        await handler(envelope.payload, em, envelope);
        return { ack: true as const, duplicate: false };
      });
    });
  }
}
