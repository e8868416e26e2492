import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { OnEvent } from '@gaia/shared/messaging';
import { LearningOutcomeUseCase } from './learning-outcome/learning-outcome.use-case';
import { AgentDataUseCase } from './task-queries/task-queries.use-case';

/** Events ingestion consumes: learning outcome of a stored version, and agent deletion (cascade). */
@Injectable()
export class IngestionEventListener {
  constructor(
    private readonly learning: LearningOutcomeUseCase,
    private readonly agentData: AgentDataUseCase,
  ) {}

  @OnEvent('ingestion', 'retrieval.build-progress.v1')
  onBuildProgress(e: EventMap['retrieval.build-progress.v1'], em: EntityManager): Promise<void> {
    return this.learning.progress(em, e);
  }

  @OnEvent('ingestion', 'retrieval.agent-learned.v1')
  onLearned(e: EventMap['retrieval.agent-learned.v1'], em: EntityManager): Promise<void> {
    return this.learning.learned(em, e);
  }

  @OnEvent('ingestion', 'retrieval.build-failed.v1')
  onBuildFailed(e: EventMap['retrieval.build-failed.v1'], em: EntityManager): Promise<void> {
    return this.learning.failed(em, e);
  }

  @OnEvent('ingestion', 'agents.agent-deleted.v1')
  async onAgentDeleted(e: EventMap['agents.agent-deleted.v1'], em: EntityManager): Promise<void> {
    await this.agentData.deleteRows(em, e.agentId);
  }
}
