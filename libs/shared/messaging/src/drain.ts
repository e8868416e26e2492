import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';
import { MessagingActivity } from './activity';
import { MessagingHost } from './messaging.host';
import { MESSAGING_OPTIONS } from './tokens';
import type { MessagingOptions } from './messaging-options';

export interface BacklogCounts {
  deliveries: number;
  jobs: number;
  dead: number;
  failedJobs: number;
}

/**
 * Waits until every committed event is delivered and every job has run. Used by tests instead of sleeps,
 * and by graceful shutdown. In one process it also drives the relay/runner directly so it never waits
 * for a poll interval; across processes it watches the shared tables.
 */
@Injectable()
export class MessagingDrain {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly activity: MessagingActivity,
    private readonly host: MessagingHost,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {}

  /**
   * Pending work. With `subscribers`, only deliveries to those consumer groups count (an in-process test
   * app hosts some groups only; events for the others wait for processes that are not there).
   */
  async backlog(subscribers?: readonly string[]): Promise<BacklogCounts> {
    const [r] = await this.ds.query(
      `SELECT (SELECT count(*) FROM outbox_delivery WHERE status = 'pending' AND ($1::text[] IS NULL OR subscriber = ANY($1::text[])))::int AS deliveries,
              (SELECT count(*) FROM outbox_delivery WHERE status = 'dead' AND ($1::text[] IS NULL OR subscriber = ANY($1::text[])))::int AS dead,
              (SELECT count(*) FROM job WHERE status IN ('pending', 'running'))::int AS jobs,
              (SELECT count(*) FROM job WHERE status = 'failed')::int AS "failedJobs"`,
      [subscribers ? [...subscribers] : null],
    );
    return r as BacklogCounts;
  }

  /** Resolves when nothing is pending anywhere and this process is idle; rejects after `timeoutMs`. */
  async drain(timeoutMs = 60_000): Promise<BacklogCounts> {
    const deadline = Date.now() + timeoutMs;
    // In one process only the hosted consumer groups can make progress; across processes, all count.
    const scope = this.options.transport === 'inprocess' ? this.options.consumers : undefined;
    for (;;) {
      await this.activity.idle();
      const b = await this.backlog(scope);
      if (b.deliveries === 0 && b.jobs === 0 && !this.activity.busy) return b;
      if (Date.now() > deadline) throw new Error(`drain timed out with ${b.deliveries} deliveries and ${b.jobs} jobs pending`);
      const claimed = await this.host.relay.runOnce();
      this.host.jobs.kick();
      if (claimed === 0) await new Promise((r) => setTimeout(r, 20));
    }
  }
}
