import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { RpcRequest, RpcResponse } from '@gaia/contracts';
import { HybridIndex } from '@gaia/engine';
import { DATA_SOURCE } from '@gaia/shared/database';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { decodeAgentArtifacts, EmbeddedRetrievalIndex, RETRIEVAL_INDEX, RetrievalStateRepository, type RetrievalIndexPort } from '@gaia/retrieval/data-access';
import { RETRIEVAL_STATE } from './retrieval.tokens';

/** Agents whose query embedder stays loaded (least recently loaded goes first). */
const MAX_QUERY_EMBEDDERS = 16;

/** Hybrid search over the examples of an agent's served version (the external index's path of translation replicas). */
@Injectable()
export class SearchExamplesUseCase {
  private readonly embedders = new Map<string, { version: string; index: HybridIndex }>();

  constructor(
    @Inject(RETRIEVAL_INDEX) private readonly index: RetrievalIndexPort,
    @Inject(RETRIEVAL_STATE) private readonly state: RetrievalStateRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
  ) {}

  async execute(req: RpcRequest<'retrieval.search.v1'>): Promise<RpcResponse<'retrieval.search.v1'>> {
    const s = await this.state.get(this.ds.manager, req.agentId);
    const side = req.side ?? 'source';
    let hits: RpcResponse<'retrieval.search.v1'>['hits'] = [];
    if (s?.readyVersion && s.artifactKey) {
      // External indexes get the query's vector for the k-NN half (source side: the side vectors are stored for).
      const vector =
        this.index instanceof EmbeddedRetrievalIndex || side !== 'source'
          ? undefined
          : (await this.queryEmbedder(req.agentId, s.readyVersion, s.artifactKey)).embedText(req.query, 'source');
      hits = await this.index.search(req.agentId, req.query, req.k ?? 8, { side, vector });
    }
    return { hits, version: s?.readyVersion ?? null };
  }

  /** The agent's engine index (from its artifact), kept per agent and version, to embed queries. */
  private async queryEmbedder(agentId: string, version: string, key: string): Promise<HybridIndex> {
    const hit = this.embedders.get(agentId);
    if (hit?.version === version) return hit.index;
    const index = HybridIndex.deserialize(decodeAgentArtifacts(await this.storage.get(key)).index);
    this.embedders.set(agentId, { version, index });
    if (this.embedders.size > MAX_QUERY_EMBEDDERS) this.embedders.delete(this.embedders.keys().next().value as string);
    return index;
  }
}
