import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { OnEvent } from '@gaia/shared/messaging';
import { AgentProcessingUseCase } from './agent-processing/agent-processing.use-case';
import { QualityReportUseCase } from './quality/quality-report.use-case';

/** The agents consumer of ingestion and retrieval events (each applied once, in the inbox transaction). */
@Injectable()
export class ProcessingEventsListener {
  constructor(
    private readonly processing: AgentProcessingUseCase,
    private readonly quality: QualityReportUseCase,
  ) {}

  @OnEvent('agents', 'ingestion.task-started.v1')
  onTaskStarted(p: EventMap['ingestion.task-started.v1'], em: EntityManager): Promise<void> {
    return this.processing.taskStarted(em, p);
  }

  @OnEvent('agents', 'ingestion.task-finished.v1')
  onTaskFinished(p: EventMap['ingestion.task-finished.v1'], em: EntityManager): Promise<void> {
    return this.processing.taskFinished(em, p);
  }

  @OnEvent('agents', 'retrieval.agent-learned.v1')
  onAgentLearned(p: EventMap['retrieval.agent-learned.v1'], em: EntityManager): Promise<void> {
    return this.processing.learned(em, p);
  }

  @OnEvent('agents', 'retrieval.agent-quality-measured.v1')
  onQualityMeasured(p: EventMap['retrieval.agent-quality-measured.v1'], em: EntityManager): Promise<void> {
    return this.quality.measured(em, p);
  }

  @OnEvent('agents', 'retrieval.build-failed.v1')
  onBuildFailed(p: EventMap['retrieval.build-failed.v1'], em: EntityManager): Promise<void> {
    return this.processing.buildFailed(em, p);
  }
}
