import { Injectable } from '@nestjs/common';
import { OnJob, type JobContext } from '@gaia/shared/messaging';
import { QUALITY_AB_JOB, QualityAbUseCase, type QualityAbJob } from './quality-ab.use-case';

/** How long a worker holds the job before another may take it over (both engines on at most 50 held-out pairs). */
export const QUALITY_AB_LEASE_MS = 180_000;

/** The durable job of the quality A/B: the built-in and LLM engines on the held-out pairs of a measured build. */
@Injectable()
export class QualityAbJobHandler {
  constructor(private readonly ab: QualityAbUseCase) {}

  @OnJob('translation', QUALITY_AB_JOB, { leaseMs: QUALITY_AB_LEASE_MS })
  run(job: QualityAbJob, ctx: JobContext): Promise<void> {
    return this.ab.run(job, ctx);
  }
}
