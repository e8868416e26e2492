import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { OnEvent } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { RETRIEVAL_INDEX, RetrievalStateRepository, type RetrievalIndexPort } from '@gaia/retrieval/data-access';
import { BuildAgentUseCase } from './build-agent.use-case';
import { RETRIEVAL_STATE } from './retrieval.tokens';

/** Events the retrieval service consumes: stored pairs (schedule a build) and agent deletion (forget the agent). */
@Injectable()
export class RetrievalEventsListener {
  constructor(
    private readonly build: BuildAgentUseCase,
    @Inject(RETRIEVAL_INDEX) private readonly index: RetrievalIndexPort,
    @Inject(RETRIEVAL_STATE) private readonly state: RetrievalStateRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  @OnEvent('retrieval', 'ingestion.pairs-stored.v1')
  onPairsStored(e: EventMap['ingestion.pairs-stored.v1'], em: EntityManager): Promise<void> {
    return this.build.schedule(e, em);
  }

  @OnEvent('retrieval', 'agents.agent-deleted.v1')
  async onAgentDeleted(e: EventMap['agents.agent-deleted.v1'], em: EntityManager): Promise<void> {
    await this.state.delete(em, e.agentId);
    await this.index.dropAgent(e.agentId);
    await this.storage.delete(`agents/${e.agentId}/artifacts/`);
  }
}
