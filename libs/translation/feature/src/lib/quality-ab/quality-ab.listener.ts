import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { OnEvent } from '@gaia/shared/messaging';
import { QualityAbUseCase } from './quality-ab.use-case';

/** The translation service's part of the quality report: a measured build queues the LLM A/B (quality-ab.job.ts runs it). */
@Injectable()
export class QualityAbListener {
  constructor(private readonly ab: QualityAbUseCase) {}

  @OnEvent('translation', 'retrieval.agent-quality-measured.v1')
  onQualityMeasured(e: EventMap['retrieval.agent-quality-measured.v1'], em: EntityManager): Promise<void> {
    return this.ab.measured(em, e);
  }
}
