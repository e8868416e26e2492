import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { OnEvent, OnJob, type JobContext } from '@gaia/shared/messaging';
import { QUALITY_AB_JOB, QualityAbUseCase, type QualityAbJob } from './quality-ab.use-case';

/** The translation service's part of the quality report: the LLM A/B after each measured build. */
@Injectable()
export class QualityAbListener {
  constructor(private readonly ab: QualityAbUseCase) {}

  @OnEvent('translation', 'retrieval.agent-learned.v1')
  onAgentLearned(e: EventMap['retrieval.agent-learned.v1'], em: EntityManager): Promise<void> {
    return this.ab.learned(em, e);
  }

  @OnJob('translation', QUALITY_AB_JOB, { leaseMs: 180_000 })
  run(job: QualityAbJob, ctx: JobContext): Promise<void> {
    return this.ab.run(job, ctx);
  }
}
