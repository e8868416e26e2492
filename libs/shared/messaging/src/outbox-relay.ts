import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { rowsOf } from './sql';
import type { EventEnvelope } from '@gaia/contracts';
import { DeliveryRejected, type EventDeliverer } from './event-deliverer';
import type { MessagingActivity } from './activity';
import { LIVE_INSTANCE_KEYS_SQL, type InstanceIdentity } from './instance-liveness';

export interface ClaimedRow {
  event_id: string;
  subscriber: string;
  attempts: number;
  topic: string;
  key: string | null;
  payload: unknown;
  request_id: string | null;
  created_at: Date;
  seq: string;
}

/** Persistence of the outbox deliveries, behind an interface so the relay's rules are unit-testable. */
export interface OutboxStore {
  /** Leases up to `limit` due pending deliveries (attempts incremented), oldest first. */
  claim(limit: number, leaseMs: number): Promise<ClaimedRow[]>;
  markDelivered(eventId: string, subscriber: string): Promise<void>;
  markFailed(eventId: string, subscriber: string, dead: boolean, error: string, retryInMs: number): Promise<void>;
  /** Gives back leased deliveries untried (order keeping), without counting an attempt. */
  release(subscriber: string, eventIds: string[], retryInMs: number): Promise<void>;
}

export class PostgresOutboxStore implements OutboxStore {
  constructor(
    private readonly ds: DataSource,
    private readonly instance: InstanceIdentity = { key: null },
  ) {}
  /** Due = pending and past its time, or leased by an instance that is no longer live (it died mid-delivery). */
  async claim(limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    return rowsOf<ClaimedRow>(
      await this.ds.query(
        `WITH due AS (
         SELECT event_id, subscriber FROM outbox_delivery
         WHERE status = 'pending' AND (next_attempt_at <= now() OR (holder IS NOT NULL AND holder NOT IN ${LIVE_INSTANCE_KEYS_SQL}))
         ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE outbox_delivery d SET next_attempt_at = now() + ($2 || ' milliseconds')::interval, attempts = d.attempts + 1, holder = $3
       FROM due, outbox_event e
       WHERE d.event_id = due.event_id AND d.subscriber = due.subscriber AND e.id = d.event_id
       RETURNING d.event_id, d.subscriber, d.attempts, d.seq, e.topic, e.key, e.payload, e.request_id, e.created_at`,
        [limit, String(leaseMs), this.instance.key],
      ),
    );
  }
  async markDelivered(eventId: string, subscriber: string): Promise<void> {
    await this.ds.query(
      `UPDATE outbox_delivery SET status = 'delivered', delivered_at = now(), last_error = NULL, holder = NULL WHERE event_id = $1 AND subscriber = $2`,
      [eventId, subscriber],
    );
  }
  async markFailed(eventId: string, subscriber: string, dead: boolean, error: string, retryInMs: number): Promise<void> {
    await this.ds.query(
      `UPDATE outbox_delivery SET status = $3, last_error = $4, next_attempt_at = now() + ($5 || ' milliseconds')::interval, holder = NULL WHERE event_id = $1 AND subscriber = $2`,
      [eventId, subscriber, dead ? 'dead' : 'pending', error, String(Math.round(retryInMs))],
    );
  }
  async release(subscriber: string, eventIds: string[], retryInMs: number): Promise<void> {
    await this.ds.query(
      `UPDATE outbox_delivery SET next_attempt_at = now() + ($3 || ' milliseconds')::interval, attempts = GREATEST(attempts - 1, 0), holder = NULL
       WHERE subscriber = $1 AND event_id = ANY($2::uuid[])`,
      [subscriber, eventIds, String(Math.round(retryInMs))],
    );
  }
}

export interface RelayOptions {
  batchSize?: number;
  pollMs?: number;
  leaseMs?: number;
  maxAttempts?: number;
  /** Backoff of the n-th failed attempt (ms). */
  backoff?: (attempt: number) => number;
}

export const defaultBackoff = (attempt: number): number => Math.min(60_000, 250 * 2 ** Math.min(attempt, 12)) * (0.75 + Math.random() * 0.5);

/**
 * Publishes committed outbox rows. Many relays may run (one per process): rows are claimed with a lease
 * (`FOR UPDATE SKIP LOCKED`), so each delivery is in flight in one place at a time; a crashed relay's
 * leases are taken over as soon as its instance is no longer live (see InstanceLiveness), else when they
 * expire. Per (subscriber, key) order is kept: a failed delivery holds back the later
 * ones of the same key in that batch. Deliveries that keep failing end as `dead` after maxAttempts.
 */
export class OutboxRelay {
  private readonly logger = new Logger('OutboxRelay');
  private timer?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private stopped = true;
  private readonly o: Required<RelayOptions>;

  constructor(
    private readonly store: OutboxStore,
    private readonly deliverer: EventDeliverer,
    private readonly activity: MessagingActivity,
    opts: RelayOptions = {},
  ) {
    this.o = {
      batchSize: opts.batchSize ?? 200,
      pollMs: opts.pollMs ?? 1000,
      leaseMs: opts.leaseMs ?? 60_000,
      maxAttempts: opts.maxAttempts ?? 25,
      backoff: opts.backoff ?? defaultBackoff,
    };
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await new Promise((r) => setImmediate(r));
  }

  /** Wake the relay now (after a local commit, or a notification). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.loop(), ms);
  }

  private async loop(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      let n: number;
      do {
        this.again = false;
        n = await this.runOnce();
      } while ((n > 0 || this.again) && !this.stopped);
    } catch (e) {
      this.logger.error(`relay pass failed: ${(e as Error).message}`);
    } finally {
      this.running = false;
      this.schedule(this.o.pollMs);
    }
  }

  /** One pass: claim due deliveries, deliver, record the outcome. Returns how many were claimed. */
  async runOnce(): Promise<number> {
    return this.activity.track(async () => {
      const rows = await this.store.claim(this.o.batchSize, this.o.leaseMs);
      if (rows.length === 0) return 0;
      rows.sort((a, b) => Number(a.seq) - Number(b.seq));
      const lanes = new Map<string, ClaimedRow[]>();
      for (const r of rows) {
        const lane = `${r.subscriber}\u0000${r.key ?? r.event_id}`;
        const list = lanes.get(lane) ?? [];
        list.push(r);
        lanes.set(lane, list);
      }
      await Promise.all([...lanes.values()].map((lane) => this.deliverLane(lane)));
      return rows.length;
    });
  }

  private async deliverLane(lane: ClaimedRow[]): Promise<void> {
    for (let i = 0; i < lane.length; i++) {
      const r = lane[i];
      const envelope: EventEnvelope = {
        id: r.event_id,
        topic: r.topic,
        key: r.key,
        occurredAt: new Date(r.created_at).toISOString(),
        payload: r.payload,
        requestId: r.request_id,
      };
      try {
        await this.deliverer.deliver(r.subscriber, envelope);
        await this.store.markDelivered(r.event_id, r.subscriber);
      } catch (e) {
        const poison = e instanceof DeliveryRejected && e.poison;
        const dead = poison || r.attempts >= this.o.maxAttempts;
        const message = (e as Error).message?.slice(0, 2000) ?? String(e);
        if (dead) this.logger.error(`delivery of ${r.topic} ${r.event_id} to ${r.subscriber} is dead after ${r.attempts} attempt(s): ${message}`);
        await this.store.markFailed(r.event_id, r.subscriber, dead, message, this.o.backoff(r.attempts));
        // Keep order within the lane: release the later ones so they are retried after this one.
        const rest = lane.slice(i + 1);
        if (rest.length) {
          await this.store.release(
            r.subscriber,
            rest.map((x) => x.event_id),
            this.o.backoff(r.attempts) + 1,
          );
        }
        return;
      }
    }
  }
}
