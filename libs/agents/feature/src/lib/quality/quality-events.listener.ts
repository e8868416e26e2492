import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { OnEvent } from '@gaia/shared/messaging';
import { QualityReportUseCase } from './quality-report.use-case';

/** The LLM A/B measured after a build joins that version's quality report. */
@Injectable()
export class QualityEventsListener {
  constructor(private readonly quality: QualityReportUseCase) {}

  @OnEvent('agents', 'translation.quality-ab-measured.v1')
  onAbMeasured(e: EventMap['translation.quality-ab-measured.v1'], em: EntityManager): Promise<void> {
    return this.quality.recordAb(em, e.agentId, e.version, e.ab);
  }
}
