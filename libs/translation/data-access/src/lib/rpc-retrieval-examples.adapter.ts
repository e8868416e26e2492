import type { RetrievalHit } from '@gaia/engine';
import type { RpcClient } from '@gaia/shared/messaging';
import type { RetrievalExamplesPort } from './retrieval-examples.port';

/** Example pairs from the retrieval service (`retrieval.search.v1`, hybrid BM25 + k-NN on OpenSearch). */
export class RpcRetrievalExamples implements RetrievalExamplesPort {
  constructor(private readonly rpc: Pick<RpcClient, 'call'>) {}

  async search(agentId: string, text: string, side: 'source' | 'target', k: number): Promise<RetrievalHit[]> {
    if (!text.trim()) return [];
    const { hits } = await this.rpc.call('retrieval.search.v1', { agentId, query: text, k, side });
    return hits;
  }
}
