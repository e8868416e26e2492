import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { MESSAGING_STATUS, type MessagingStatusPort } from '@gaia/shared/messaging';
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
    @Inject(MESSAGING_STATUS) private readonly status: MessagingStatusPort,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'gaia_job_queue_depth',
      'Jobs waiting or running, by kind and status (ingestion queue: kind="ingestion.process-task")',
      ['kind', 'status'],
      async (set) => {
        for (const r of await this.status.jobDepth()) set({ kind: r.kind, status: r.status }, r.n);
      },
    );
    this.metrics.gauge('gaia_outbox_pending', 'Events not yet delivered, by subscriber', ['subscriber'], async (set) => {
      for (const r of await this.status.backlogBySubscriber()) set({ subscriber: r.subscriber }, r.pending);
    });
    this.metrics.gauge('gaia_outbox_lag_seconds', 'Age of the oldest undelivered event, by subscriber', ['subscriber'], async (set) => {
      for (const r of await this.status.backlogBySubscriber()) set({ subscriber: r.subscriber }, r.lagSeconds);
    });
    this.metrics.gauge('gaia_outbox_dead_letters', 'Deliveries given up (dead letters), by subscriber', ['subscriber'], async (set) => {
      for (const r of await this.status.backlogBySubscriber()) set({ subscriber: r.subscriber }, r.dead);
    });
  }
}
