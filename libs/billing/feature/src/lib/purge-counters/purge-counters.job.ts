import { Injectable } from '@nestjs/common';
import { OnJob } from '@gaia/shared/messaging';
import { PURGE_COUNTERS_JOB, PurgeCountersUseCase } from './purge-counters.use-case';

/** The durable job that purges expired public-translator counters (queued by public authorizations). */
@Injectable()
export class PurgeCountersJob {
  constructor(private readonly purge: PurgeCountersUseCase) {}

  @OnJob('billing', PURGE_COUNTERS_JOB)
  async run(): Promise<void> {
    await this.purge.purge();
  }
}
