import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap, RpcRequest, RpcResponse } from '@gaia/contracts';
import { DATA_SOURCE } from '@gaia/shared/database';
import { OnEvent, OnJob, OnRpc, type JobContext } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { RETRIEVAL_INDEX, RetrievalStateRepository, type RetrievalIndexPort } from '@gaia/retrieval/data-access';
import type { DataSource } from 'typeorm';
import { BuildAgentUseCase, type BuildAgentJob } from './build-agent.use-case';
import { BUILD_AGENT_JOB, RETRIEVAL_STATE } from './retrieval.tokens';

/** Maps events, jobs and calls of the retrieval service onto its use cases. */
@Injectable()
export class RetrievalListener {
  constructor(
    private readonly build: BuildAgentUseCase,
    @Inject(RETRIEVAL_INDEX) private readonly index: RetrievalIndexPort,
    @Inject(RETRIEVAL_STATE) private readonly state: RetrievalStateRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
  ) {}

  @OnEvent('retrieval', 'ingestion.pairs-stored.v1')
  onPairsStored(e: EventMap['ingestion.pairs-stored.v1'], em: EntityManager): Promise<void> {
    return this.build.schedule(e, em);
  }

  @OnJob('retrieval', BUILD_AGENT_JOB, { leaseMs: 180_000 })
  runBuild(payload: BuildAgentJob, ctx: JobContext): Promise<void> {
    return this.build.run(payload, ctx);
  }

  @OnEvent('retrieval', 'agents.agent-deleted.v1')
  async onAgentDeleted(e: EventMap['agents.agent-deleted.v1'], em: EntityManager): Promise<void> {
    await this.state.delete(em, e.agentId);
    await this.index.dropAgent(e.agentId);
    await this.storage.delete(`agents/${e.agentId}/artifacts/`);
  }

  @OnRpc('retrieval.search.v1')
  async search(req: RpcRequest<'retrieval.search.v1'>): Promise<RpcResponse<'retrieval.search.v1'>> {
    const s = await this.state.get(this.ds.manager, req.agentId);
    const hits = s?.readyVersion ? await this.index.search(req.agentId, req.query, req.k ?? 8, { side: req.side ?? 'source' }) : [];
    return { hits, version: s?.readyVersion ?? null };
  }

  @OnRpc('retrieval.agent-state.v1')
  async agentState(req: RpcRequest<'retrieval.agent-state.v1'>): Promise<RpcResponse<'retrieval.agent-state.v1'>> {
    const s = await this.state.get(this.ds.manager, req.agentId);
    return {
      agentId: req.agentId,
      status: s?.status ?? 'none',
      version: s?.readyVersion ?? null,
      artifactKey: s?.artifactKey ?? null,
      learnedSummary: s?.learnedSummary ?? null,
      pairCount: s?.pairCount ?? 0,
      error: s?.error ?? null,
    };
  }
}
