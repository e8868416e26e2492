import type { RetrievalHit } from '@gaia/engine';

/**
 * Where a translation replica gets the nearest example pairs of an agent when it does not hold the agent's
 * index itself (RETRIEVAL_BACKEND=opensearch): the retrieval service's hybrid search.
 */
export interface RetrievalExamplesPort {
  search(agentId: string, text: string, side: 'source' | 'target', k: number): Promise<RetrievalHit[]>;
}

export const RETRIEVAL_EXAMPLES = Symbol('RETRIEVAL_EXAMPLES');
