import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';

export interface SubscriberLag {
  subscriber: string;
  pending: number;
  /** Seconds since the oldest undelivered event of this subscriber was written (0 when none). */
  lag_seconds: number;
  dead: number;
}

export interface DeadLetter {
  event_id: string;
  topic: string;
  subscriber: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
}

/** Read and repair side of the messaging tables (outbox deliveries, jobs) for the operator. */
@Injectable()
export class OutboxStatusRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async lagBySubscriber(): Promise<SubscriberLag[]> {
    const rows: { subscriber: string; pending: number; dead: number; lag: string | number | null }[] = await this.ds.query(
      `SELECT d.subscriber,
              count(*) FILTER (WHERE d.status = 'pending')::int AS pending,
              count(*) FILTER (WHERE d.status = 'dead')::int AS dead,
              COALESCE(EXTRACT(EPOCH FROM now() - min(e.created_at) FILTER (WHERE d.status = 'pending')), 0) AS lag
         FROM outbox_delivery d JOIN outbox_event e ON e.id = d.event_id
        WHERE d.status <> 'delivered'
        GROUP BY d.subscriber ORDER BY d.subscriber`,
    );
    return rows.map((r) => ({ subscriber: r.subscriber, pending: r.pending, dead: r.dead, lag_seconds: Math.round(Number(r.lag ?? 0)) }));
  }

  async deadLetters(limit: number): Promise<DeadLetter[]> {
    const rows: (Omit<DeadLetter, 'created_at'> & { created_at: Date })[] = await this.ds.query(
      `SELECT d.event_id, e.topic, d.subscriber, d.attempts, d.last_error, e.created_at
         FROM outbox_delivery d JOIN outbox_event e ON e.id = d.event_id
        WHERE d.status = 'dead' ORDER BY e.seq LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
  }

  async jobCounts(): Promise<{ pending: number; running: number; failed: number }> {
    const rows: { pending: number; running: number; failed: number }[] = await this.ds.query(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'running')::int AS running,
              count(*) FILTER (WHERE status = 'failed')::int AS failed FROM job`,
    );
    return rows[0] ?? { pending: 0, running: 0, failed: 0 };
  }

  /** Puts dead deliveries (all, or one event's) back in the queue with fresh attempts; answers how many. */
  async retryDead(eventId?: string): Promise<number> {
    const rows: unknown[] = await this.ds.query(
      `UPDATE outbox_delivery SET status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL
        WHERE status = 'dead' AND ($1::uuid IS NULL OR event_id = $1::uuid) RETURNING event_id`,
      [eventId ?? null],
    );
    const r = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
    return r.length;
  }
}
