import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';
import { METRICS, type GaiaMetrics } from '@gaia/shared/observability';

/**
 * Gauges read from the shared messaging tables at scrape time: job queue depth per kind (ingestion's
 * `ingestion.process-task` is the ingestion queue), and per subscriber the undelivered events, the age of
 * the oldest one (outbox lag) and the dead letters. Every process reports the same installation-wide values.
 */
@Injectable()
export class MessagingGauges implements OnModuleInit {
  constructor(
    @Inject(METRICS) private readonly metrics: GaiaMetrics,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge('gaia_job_queue_depth', 'Jobs waiting or running, by kind and status (ingestion queue: kind="ingestion.process-task")', ['kind', 'status'], async (set) => {
      const rows: { kind: string; status: string; n: number }[] = await this.ds.query(
        `SELECT kind, status, count(*)::int AS n FROM job WHERE status IN ('pending', 'running') GROUP BY kind, status`,
      );
      for (const r of rows) set({ kind: r.kind, status: r.status }, r.n);
    });
    const deliveries = () =>
      this.ds.query(
        `SELECT d.subscriber,
                count(*) FILTER (WHERE d.status = 'pending')::int AS pending,
                count(*) FILTER (WHERE d.status = 'dead')::int AS dead,
                COALESCE(EXTRACT(EPOCH FROM now() - min(e.created_at) FILTER (WHERE d.status = 'pending')), 0)::float AS lag
           FROM outbox_delivery d JOIN outbox_event e ON e.id = d.event_id
          WHERE d.status <> 'delivered' GROUP BY d.subscriber`,
      ) as Promise<{ subscriber: string; pending: number; dead: number; lag: number }[]>;
    this.metrics.gauge('gaia_outbox_pending', 'Events not yet delivered, by subscriber', ['subscriber'], async (set) => {
      for (const r of await deliveries()) set({ subscriber: r.subscriber }, r.pending);
    });
    this.metrics.gauge('gaia_outbox_lag_seconds', 'Age of the oldest undelivered event, by subscriber', ['subscriber'], async (set) => {
      for (const r of await deliveries()) set({ subscriber: r.subscriber }, r.lag);
    });
    this.metrics.gauge('gaia_outbox_dead_letters', 'Deliveries given up (dead letters), by subscriber', ['subscriber'], async (set) => {
      for (const r of await deliveries()) set({ subscriber: r.subscriber }, r.dead);
    });
  }
}
