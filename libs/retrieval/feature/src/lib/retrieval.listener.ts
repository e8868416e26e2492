import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap, RpcRequest, RpcResponse } from '@gaia/contracts';
import { DATA_SOURCE } from '@gaia/shared/database';
import { OnEvent, OnJob, OnRpc, type JobContext } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { HybridIndex } from '@gaia/engine';
import { decodeAgentArtifacts, EmbeddedRetrievalIndex, RETRIEVAL_INDEX, RetrievalStateRepository, type RetrievalIndexPort } from '@gaia/retrieval/data-access';
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
    const side = req.side ?? 'source';
    let hits: RpcResponse<'retrieval.search.v1'>['hits'] = [];
    if (s?.readyVersion && s.artifactKey) {
      // External indexes get the query's vector for the k-NN half (source side: the side vectors are stored for).
      const vector = this.index instanceof EmbeddedRetrievalIndex || side !== 'source' ? undefined : (await this.queryEmbedder(req.agentId, s.readyVersion, s.artifactKey)).embedText(req.query, 'source');
      hits = await this.index.search(req.agentId, req.query, req.k ?? 8, { side, vector });
    }
    return { hits, version: s?.readyVersion ?? null };
  }

  private embedders = new Map<string, { version: string; index: HybridIndex }>();

  /** The agent's engine index (from its artifact), kept per agent and version, to embed queries. */
  private async queryEmbedder(agentId: string, version: string, key: string): Promise<HybridIndex> {
    const hit = this.embedders.get(agentId);
    if (hit?.version === version) return hit.index;
    const index = HybridIndex.deserialize(decodeAgentArtifacts(await this.storage.get(key)).index);
    this.embedders.set(agentId, { version, index });
    if (this.embedders.size > 16) this.embedders.delete(this.embedders.keys().next().value as string);
    return index;
  }
}
