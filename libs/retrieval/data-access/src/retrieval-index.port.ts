import type { RetrievalHit } from '@gaia/engine';

/**
 * The retrieval port: every index of translation pairs (the embedded HybridIndex wrapper and the
 * OpenSearch adapter) implements it, so the same service code runs on both.
 */
export const RETRIEVAL_INDEX = Symbol('RETRIEVAL_INDEX');

export interface IndexedPair {
  id: string;
  source: string;
  target: string;
  /** Optional dense embedding of the pair (used for the k-NN half of hybrid search). */
  vector?: number[];
}

export interface RetrievalSearchOptions {
  /** Which side of the pairs the query is written in. Default 'source'. */
  side?: 'source' | 'target';
  /** Embedding of the query; when given, lexical and vector scores are combined (hybrid). */
  vector?: number[];
}

/** A retrieved example: the engine's shape (`@gaia/engine`), so a hit feeds the translator as it is. */
export type { RetrievalHit };

export interface RetrievalIndexPort {
  upsert(agentId: string, pairs: IndexedPair[]): Promise<void>;
  remove(agentId: string, pairIds: string[]): Promise<void>;
  dropAgent(agentId: string): Promise<void>;
  search(agentId: string, query: string, k: number, opts?: RetrievalSearchOptions): Promise<RetrievalHit[]>;
}
