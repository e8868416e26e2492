import { Inject, Injectable, Logger } from '@nestjs/common';
import { COUNTER_PURGE_REPOSITORY, type CounterPurgeRepositoryPort } from '@gaia/billing/data-access';
import type { EntityManager } from 'typeorm';
import type { Clock } from '@gaia/shared/kernel';
import { JOB_QUEUE, type JobQueue, TrafficDrivenJob } from '@gaia/shared/messaging';
import { BILLING_CLOCK } from '../billing.tokens';
import { dayWindow, utcDayStart } from '../billing.rules';
import { minuteWindow } from '../metering.rules';

export const PURGE_COUNTERS_JOB = 'billing.purge-public-counters';
/** Public authorizations between two attempts to queue the purge (like identity's rate limiter, which purges every 500 hits). */
export const PURGE_EVERY_PUBLIC_AUTHORIZATIONS = 100;
/**
 * Purges the anonymous public translator's per-IP counters (`public-ip:<ip>`, per minute and per UTC day) once their
 * window has passed, so billing_counter does not grow forever nor keep client IPs past the day they count (nor does
 * billing_authorization, whose `counters` name them for a release). Like the
 * identity rate limiter's purge, it is driven by the traffic it cleans up after: every PURGE_EVERY_PUBLIC_AUTHORIZATIONS
 * public authorizations queue, in their own transaction, the durable job `billing.purge-public-counters` (purge-counters.job.ts; one per hour).
 */
@Injectable()
export class PurgeCountersUseCase {
  private readonly logger = new Logger('BillingCounterPurge');
  private readonly trigger: TrafficDrivenJob;

  constructor(
    @Inject(JOB_QUEUE) jobs: JobQueue,
    @Inject(BILLING_CLOCK) private readonly clock: Clock,
    @Inject(COUNTER_PURGE_REPOSITORY) private readonly counters: CounterPurgeRepositoryPort,
  ) {
    this.trigger = new TrafficDrivenJob(jobs, PURGE_COUNTERS_JOB, PURGE_EVERY_PUBLIC_AUTHORIZATIONS);
  }

  /**
   * Counts a public authorization; every PURGE_EVERY_PUBLIC_AUTHORIZATIONS-th queues the purge in the authorization's
   * own transaction (`em`): durable with it, and there for whoever waits on the job queue once the authorization is
   * answered. A repeat within the hour is a no-op insert (the dedupe key).
   */
  publicAuthorized(em: EntityManager): Promise<void> {
    return this.trigger.counted(em, this.clock.now());
  }

  /**
   * Deletes the public counters of windows that have passed (the current minute and day stay), and drops them from
   * the authorizations of earlier days (today's keep them: a release gives their units back).
   */
  async purge(): Promise<number> {
    const now = this.clock.now();
    const purged = await this.counters.purgePublicIpCounters(minuteWindow(now), dayWindow(now));
    if (purged) this.logger.log(`purged ${purged} expired public-translator counters`);
    const forgotten = await this.counters.forgetPublicIpsOfAuthorizations(utcDayStart(now));
    if (forgotten) this.logger.log(`dropped the client IPs of ${forgotten} past public authorizations`);
    return purged;
  }
}
