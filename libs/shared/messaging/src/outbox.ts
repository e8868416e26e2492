import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { eventDefinition, type EventMap, type Topic } from '@gaia/contracts';
import { MESSAGING_OPTIONS } from './tokens';
import { OUTBOX_CHANNEL } from './patterns';
import type { MessagingOptions } from './messaging-options';

export interface OutboxAddOptions {
  /** Event id; pass a deterministic one to make the write idempotent (a repeat is ignored). */
  id?: string;
  /** Ordering/partition key; default: the payload field named by the event's `keyField`. */
  key?: string;
  requestId?: string | null;
}

/** Writes events in the caller's transaction: the state change and its event commit or roll back together. */
export interface Outbox {
  add<T extends Topic>(em: EntityManager, topic: T, payload: EventMap[T], opts?: OutboxAddOptions): Promise<string>;
}

/** Subscriber row used when the broker itself fans out (Kafka consumer groups). */
export const BROKER_SUBSCRIBER = '$broker';

@Injectable()
export class PostgresOutbox implements Outbox {
  constructor(@Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions) {}

  async add<T extends Topic>(em: EntityManager, topic: T, payload: EventMap[T], opts: OutboxAddOptions = {}): Promise<string> {
    const def = eventDefinition(topic);
    const parsed = def.schema.parse(payload);
    const id = opts.id ?? randomUUID();
    const key = opts.key ?? (def.keyField ? String((parsed as Record<string, unknown>)[def.keyField] ?? '') || null : null);
    const inserted: { seq: string }[] = await em.query(
      `INSERT INTO outbox_event (id, topic, key, payload, request_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO NOTHING RETURNING seq`,
      [id, topic, key, JSON.stringify(parsed), opts.requestId ?? null],
    );
    if (inserted.length === 0) return id; // idempotent repeat
    const subscribers = this.options.transport === 'kafka' ? [BROKER_SUBSCRIBER] : [...def.subscribers];
    if (subscribers.length) {
      await em.query(`INSERT INTO outbox_delivery (event_id, subscriber, seq) SELECT $1, s, $2 FROM unnest($3::text[]) AS s`, [
        id,
        inserted[0].seq,
        subscribers,
      ]);
      await em.query(`SELECT pg_notify($1, $2)`, [OUTBOX_CHANNEL, topic]);
    }
    return id;
  }
}
