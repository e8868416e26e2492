import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';
import { rowsOf } from './sql';

export interface SubscriberBacklog {
  subscriber: string;
  pending: number;
  dead: number;
  /** Seconds since the oldest undelivered event of this subscriber was written (0 when none). */
  lagSeconds: number;
}

export interface DeadLetter {
  event_id: string;
  topic: string;
  subscriber: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
}

export interface JobCounts {
  pending: number;
  running: number;
  failed: number;
}

/** Read and repair side of the messaging tables (outbox deliveries, jobs): metrics gauges and the operator. */
export interface MessagingStatusPort {
  /** Undelivered events per subscriber (pending, dead, age of the oldest pending), by subscriber name. */
  backlogBySubscriber(): Promise<SubscriberBacklog[]>;
  /** Jobs waiting or running, by kind and status. */
  jobDepth(): Promise<Array<{ kind: string; status: string; n: number }>>;
  jobCounts(): Promise<JobCounts>;
  /** The oldest dead letters first, at most `limit`. */
  deadLetters(limit: number): Promise<DeadLetter[]>;
  /** Puts dead deliveries (all, or one event's) back in the queue with fresh attempts; answers how many. */
  retryDead(eventId?: string): Promise<number>;
}
export const MESSAGING_STATUS = Symbol('MESSAGING_STATUS');

@Injectable()
export class PostgresMessagingStatus implements MessagingStatusPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async backlogBySubscriber(): Promise<SubscriberBacklog[]> {
    const rows: { subscriber: string; pending: number; dead: number; lag: string | number | null }[] = await this.ds.query(
      `SELECT d.subscriber,
              count(*) FILTER (WHERE d.status = 'pending')::int AS pending,
              count(*) FILTER (WHERE d.status = 'dead')::int AS dead,
              COALESCE(EXTRACT(EPOCH FROM now() - min(e.created_at) FILTER (WHERE d.status = 'pending')), 0)::float AS lag
         FROM outbox_delivery d JOIN outbox_event e ON e.id = d.event_id
        WHERE d.status <> 'delivered'
        GROUP BY d.subscriber ORDER BY d.subscriber`,
    );
    return rows.map((r) => ({ subscriber: r.subscriber, pending: r.pending, dead: r.dead, lagSeconds: Number(r.lag ?? 0) }));
  }

  jobDepth(): Promise<Array<{ kind: string; status: string; n: number }>> {
    return this.ds.query(`SELECT kind, status, count(*)::int AS n FROM job WHERE status IN ('pending', 'running') GROUP BY kind, status`);
  }

  async jobCounts(): Promise<JobCounts> {
    const rows: JobCounts[] = await this.ds.query(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'running')::int AS running,
              count(*) FILTER (WHERE status = 'failed')::int AS failed FROM job`,
    );
    return rows[0] ?? { pending: 0, running: 0, failed: 0 };
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

  async retryDead(eventId?: string): Promise<number> {
    const res: unknown = await this.ds.query(
      `UPDATE outbox_delivery SET status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL
        WHERE status = 'dead' AND ($1::uuid IS NULL OR event_id = $1::uuid) RETURNING event_id`,
      [eventId ?? null],
    );
    return rowsOf(res).length;
  }
}
